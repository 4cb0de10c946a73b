import type { PanelModel, TableModel } from './panel-models.js';

/** Draws a chart into a container; false when it cannot (no canvas support). */
export type ChartDrawer = (
  container: HTMLElement,
  model: NonNullable<PanelModel['chart']>,
) => boolean;

function element<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  options: { className?: string; text?: string } = {},
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  if (options.className !== undefined) node.className = options.className;
  if (options.text !== undefined) node.textContent = options.text;
  return node;
}

/** Renders a table model as an accessible table (caption, column headers, text cells). */
export function renderTable(model: TableModel): HTMLTableElement {
  const table = element('table');
  table.append(element('caption', { text: model.caption }));
  const head = element('thead');
  const headRow = element('tr');
  for (const column of model.columns) {
    const cell = element('th', { text: column });
    cell.scope = 'col';
    headRow.append(cell);
  }
  head.append(headRow);
  const body = element('tbody');
  if (model.rows.length === 0) {
    const row = element('tr');
    const cell = element('td', { text: model.empty, className: 'empty' });
    cell.colSpan = model.columns.length;
    row.append(cell);
    body.append(row);
  }
  for (const cells of model.rows) {
    const row = element('tr');
    cells.forEach((text, index) => {
      if (index === 0) {
        const cell = element('th', { text });
        cell.scope = 'row';
        row.append(cell);
      } else {
        row.append(element('td', { text }));
      }
    });
    body.append(row);
  }
  table.append(head, body);
  return table;
}

/**
 * Fills a panel's section: its headline figures, its chart (when `drawChart` is given and can
 * draw) and its table. The table is always there: folded under the chart when the chart is
 * drawn, open when there is no chart (no chart library, no canvas, or nothing to draw).
 *
 * @returns whether a chart was drawn
 */
export function renderPanel(
  section: HTMLElement,
  model: PanelModel,
  drawChart: ChartDrawer | undefined,
): boolean {
  const heading = section.querySelector('h2');
  section.replaceChildren(...(heading === null ? [] : [heading]));
  section.dataset.populated = 'true';
  if (model.figures !== undefined) {
    const figures = element('dl', { className: 'figures' });
    for (const figure of model.figures) {
      const box = element('div');
      box.append(element('dt', { text: figure.label }), element('dd', { text: figure.value }));
      figures.append(box);
    }
    section.append(figures);
  }
  let drawn = false;
  if (model.chart !== undefined && drawChart !== undefined) {
    const box = element('div', { className: 'chart-box' });
    section.append(box);
    drawn = drawChart(box, model.chart);
    if (!drawn) box.remove();
  }
  const details = element('details', { className: 'table-box' });
  details.open = !drawn;
  details.append(element('summary', { text: drawn ? 'Show as a table' : 'Table' }));
  details.append(renderTable(model.table));
  section.append(details);
  section.dataset.chart = drawn ? 'drawn' : 'table-only';
  return drawn;
}
