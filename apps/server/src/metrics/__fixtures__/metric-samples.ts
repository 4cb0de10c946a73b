/** One sample of a Prometheus text exposition. */
export interface MetricSample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
  readonly value: number;
}

/**
 * Parses the samples of a Prometheus text exposition (comments skipped; label values unescaped
 * for `\\`, `\"` and `\n`). Enough for tests: no timestamps, no exemplars.
 *
 * @param text - the exposition
 */
export function parseMetricSamples(text: string): MetricSample[] {
  const samples: MetricSample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? (\S+)$/.exec(line);
    if (match === null) throw new Error(`not a sample line: ${line}`);
    const labels: Record<string, string> = {};
    for (const pair of (match[2] ?? '').matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      labels[pair[1] ?? ''] = (pair[2] ?? '').replace(/\\(.)/g, (_, c: string) =>
        c === 'n' ? '\n' : c,
      );
    }
    samples.push({ name: match[1] ?? '', labels, value: Number(match[3]) });
  }
  return samples;
}

/**
 * The sum of the samples named `name` whose labels include `labels` (0 when none match).
 *
 * @param samples - parsed samples
 * @param name - the sample name (`relay_requests_total`, `…_bucket`, …)
 * @param labels - labels every counted sample must carry
 */
export function sumOf(
  samples: readonly MetricSample[],
  name: string,
  labels: Readonly<Record<string, string>> = {},
): number {
  let total = 0;
  for (const sample of samples) {
    if (sample.name !== name) continue;
    if (Object.entries(labels).every(([key, value]) => sample.labels[key] === value)) {
      total += sample.value;
    }
  }
  return total;
}
