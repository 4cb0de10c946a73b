/**
 * Reduces a V8 `.cpuprofile` (from `node --cpu-prof`) to where the time went: self time by
 * area (the relay's pipeline, its packages, Hono, SQLite, Node internals, GC, idle) and the
 * hottest functions.
 */

/** The subset of the V8 CPU profile format the summary reads. */
export interface CpuProfile {
  readonly nodes: readonly {
    readonly id: number;
    readonly callFrame: {
      readonly functionName: string;
      readonly url: string;
      readonly lineNumber: number;
    };
    readonly hitCount?: number;
    readonly children?: readonly number[];
  }[];
  readonly samples?: readonly number[];
  readonly timeDeltas?: readonly number[];
}

/** A share of the sampled time. */
export interface ProfileShare {
  readonly name: string;
  /** Fraction of all samples, 0..1. */
  readonly share: number;
}

/** The summary of one profile. */
export interface ProfileSummary {
  readonly samples: number;
  /** Busy samples only (idle excluded), by area, largest first. */
  readonly areas: readonly ProfileShare[];
  /** Busy samples only, by function, largest first. */
  readonly functions: readonly ProfileShare[];
  /** Fraction of all samples the process was idle. */
  readonly idle: number;
}

/** The area of a call frame's script URL. */
export function areaOf(url: string, functionName: string): string {
  if (url === '') {
    if (functionName === '(idle)') return 'idle';
    if (functionName === '(garbage collector)') return 'garbage collector';
    return 'V8 / native';
  }
  const path = url.replace(/^file:\/\//, '');
  const pkg = /\/packages\/([^/]+)\/src\//.exec(path);
  if (pkg?.[1] !== undefined) return `@relay/${pkg[1]}`;
  if (path.includes('/apps/server/src/pipeline/')) return 'server: pipeline';
  if (path.includes('/apps/server/src/')) return 'server: app, auth, storage';
  const dep = /node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?((?:@[^/]+\/)?[^/]+)/.exec(path);
  if (dep?.[1] !== undefined) return dep[1];
  if (path.startsWith('node:')) return 'Node internals (http, streams, timers)';
  return 'other';
}

/** Summarizes a profile: self time by area and by function (top `limit`). */
export function summarizeProfile(profile: CpuProfile, limit = 12): ProfileSummary {
  const hits = new Map<number, number>();
  if (profile.samples !== undefined && profile.samples.length > 0) {
    for (const id of profile.samples) hits.set(id, (hits.get(id) ?? 0) + 1);
  } else {
    for (const node of profile.nodes) hits.set(node.id, node.hitCount ?? 0);
  }
  let total = 0;
  let idle = 0;
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  for (const node of profile.nodes) {
    const count = hits.get(node.id) ?? 0;
    if (count === 0) continue;
    total += count;
    const { functionName, url, lineNumber } = node.callFrame;
    const area = areaOf(url, functionName);
    if (area === 'idle') {
      idle += count;
      continue;
    }
    areas.set(area, (areas.get(area) ?? 0) + count);
    const file =
      url === '' ? '' : ` ${url.replace(/^.*\/(?=[^/]+\/[^/]+$)/, '')}:${String(lineNumber + 1)}`;
    const key = `${functionName === '' ? '(anonymous)' : functionName}${file}`;
    functions.set(key, (functions.get(key) ?? 0) + count);
  }
  const busy = total - idle;
  const rank = (map: Map<string, number>, n: number): ProfileShare[] =>
    [...map.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, count]) => ({ name, share: busy === 0 ? 0 : count / busy }));
  return {
    samples: total,
    areas: rank(areas, Number.POSITIVE_INFINITY),
    functions: rank(functions, limit),
    idle: total === 0 ? 0 : idle / total,
  };
}

/** A named stage of a request: the function names whose frames belong to it. */
export interface ProfileStage {
  readonly name: string;
  readonly functions: readonly string[];
}

/**
 * Attributes every busy sample of the load (start-up's module loading, idle and `(program)`
 * excluded) to the innermost stage on its stack, or to `other`: a partition, so the shares
 * add up to 1. Function names are those of the built `dist/` (tsdown keeps them).
 *
 * @returns the samples counted and each stage's share, in the order given, `other` last
 */
export function stageShares(
  profile: CpuProfile,
  stages: readonly ProfileStage[],
): { readonly samples: number; readonly stages: readonly ProfileShare[] } {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);
  const stageOf = new Map<string, string>();
  for (const stage of stages) for (const fn of stage.functions) stageOf.set(fn, stage.name);
  const counts = new Map<string, number>();
  let busy = 0;
  for (const sample of profile.samples ?? []) {
    const leaf = byId.get(sample)?.callFrame.functionName;
    if (leaf === undefined || leaf === '(idle)' || leaf === '(program)') continue;
    let stage: string | undefined;
    let startUp = false;
    for (let id: number | undefined = sample; id !== undefined; id = parent.get(id)) {
      const frame = byId.get(id)?.callFrame;
      if (frame === undefined) break;
      if (/run_main|module_job/.test(frame.url)) startUp = true;
      stage ??= stageOf.get(frame.functionName);
    }
    if (startUp) continue;
    busy += 1;
    const name = stage ?? 'other';
    counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  const share = (name: string) => (busy === 0 ? 0 : (counts.get(name) ?? 0) / busy);
  return {
    samples: busy,
    stages: [
      ...stages.map((s) => ({ name: s.name, share: share(s.name) })),
      { name: 'other', share: share('other') },
    ],
  };
}
