import {
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  Chart,
  DoughnutController,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
  type ChartConfiguration,
} from 'chart.js';
import type { ChartModel } from './panel-models.js';

Chart.register(
  ArcElement,
  BarController,
  BarElement,
  CategoryScale,
  DoughnutController,
  Legend,
  LinearScale,
  LineController,
  LineElement,
  PointElement,
  Tooltip,
);

const COLORS = ['#2563eb', '#f59e0b', '#10b981', '#ef4444', '#8b5cf6', '#64748b'];

const charts = new Set<Chart>();

/** Destroys every chart drawn so far (before a refresh redraws them). */
export function destroyCharts(): void {
  for (const chart of charts) chart.destroy();
  charts.clear();
}

function toConfiguration(model: ChartModel): ChartConfiguration {
  const percent = model.percent === true;
  const datasets = model.series.map((series, index) => {
    const color = COLORS[index % COLORS.length] ?? '#2563eb';
    return {
      label: series.label,
      data: series.values.map((value) => (value === null ? null : percent ? value * 100 : value)),
      ...(series.stack === undefined ? {} : { stack: series.stack }),
      backgroundColor: model.type === 'doughnut' ? ['#10b981', '#f59e0b'] : color,
      borderColor: model.type === 'doughnut' ? '#ffffff' : color,
      spanGaps: true,
      pointRadius: 2,
    };
  });
  const stacked = model.series.some((series) => series.stack !== undefined);
  return {
    type: model.type,
    data: { labels: [...model.labels], datasets },
    options: {
      animation: false,
      responsive: true,
      maintainAspectRatio: false,
      ...(model.horizontal === true ? { indexAxis: 'y' as const } : {}),
      plugins: { legend: { display: model.series.length > 1 || model.type === 'doughnut' } },
      ...(model.type === 'doughnut'
        ? {}
        : {
            scales: {
              x: { stacked },
              y: {
                stacked,
                beginAtZero: true,
                ...(percent
                  ? {
                      max: 100,
                      ticks: { callback: (value: string | number) => `${String(value)} %` },
                    }
                  : {}),
              },
            },
          }),
    },
  };
}

/**
 * Draws a chart model with Chart.js on a new canvas in `container`.
 *
 * @returns false when the browser gives no 2D canvas (the panel keeps its table)
 */
export function drawChart(container: HTMLElement, model: ChartModel): boolean {
  const canvas = document.createElement('canvas');
  canvas.setAttribute('role', 'img');
  canvas.setAttribute('aria-label', model.description);
  container.append(canvas);
  const context = canvas.getContext('2d');
  if (context === null) {
    canvas.remove();
    return false;
  }
  try {
    charts.add(new Chart(context, toConfiguration(model)));
    return true;
  } catch {
    canvas.remove();
    return false;
  }
}
