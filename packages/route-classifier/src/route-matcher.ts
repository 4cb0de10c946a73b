import {
  GIST_ID_PATTERN,
  GIT_OBJECT_ID_PATTERN,
  LICENSE_KEY_PATTERN,
  isLogin,
  isNumericId,
  isRepoName,
} from './param-patterns.js';
import type { RouteDefinition, RouteParams } from './route-table.js';

/** A route of the table that matched a path, with its parameters (percent-encoding kept). */
export interface RouteMatch {
  readonly definition: RouteDefinition;
  readonly template: string;
  readonly params: RouteParams;
}

/** Finds the route of a path, given as its raw segments (the path split on '/', first dropped). */
export type RouteMatcher = (segments: readonly string[]) => RouteMatch | undefined;

type SegmentTest = (segment: string) => boolean;

type Segment =
  | { readonly type: 'literal'; readonly value: string }
  | { readonly type: 'param'; readonly name: string; readonly test: SegmentTest }
  | { readonly type: 'rest'; readonly name: string; readonly min: 0 | 1 };

interface CompiledRoute {
  readonly definition: RouteDefinition;
  readonly template: string;
  readonly prefix: readonly Segment[];
  /** The multi-segment parameter, when the template has one, and the segments after it. */
  readonly rest: Extract<Segment, { type: 'rest' }> | undefined;
  readonly suffix: readonly Segment[];
  readonly literals: number;
}

const ANY_SEGMENT: SegmentTest = () => true;
const pattern =
  (regex: RegExp): SegmentTest =>
  (segment) =>
    regex.test(segment);

// Literal siblings GitHub has beside a parameter we relay: the literal wins (issue 3 rule 4).
const GIST_LITERALS: ReadonlySet<string> = new Set(['public', 'starred']);

const PARAM_TESTS: Readonly<Record<string, SegmentTest>> = {
  owner: isLogin,
  username: isLogin,
  org: isLogin,
  assignee: isLogin,
  repo: isRepoName,
  gist_id: (segment) => !GIST_LITERALS.has(segment) && GIST_ID_PATTERN.test(segment),
  license: pattern(LICENSE_KEY_PATTERN),
  file_sha: pattern(GIT_OBJECT_ID_PATTERN),
  tag_sha: pattern(GIT_OBJECT_ID_PATTERN),
  commit_sha: pattern(GIT_OBJECT_ID_PATTERN),
};

function testFor(name: string): SegmentTest {
  const known = PARAM_TESTS[name];
  if (known !== undefined) return known;
  return name.endsWith('_id') || name.endsWith('_number') ? isNumericId : ANY_SEGMENT;
}

function compileSegment(raw: string): Segment {
  const param = /^\{([a-z_]+)([+*]?)\}$/.exec(raw);
  if (param === null) return { type: 'literal', value: raw };
  const [, name = '', modifier] = param;
  if (modifier === '+' || modifier === '*') {
    return { type: 'rest', name, min: modifier === '+' ? 1 : 0 };
  }
  // workflow_id is a numeric id or a workflow file name.
  return { type: 'param', name, test: name === 'workflow_id' ? ANY_SEGMENT : testFor(name) };
}

function compile(definition: RouteDefinition, template: string): CompiledRoute {
  const segments = template.slice(1).split('/').map(compileSegment);
  const restIndex = segments.findIndex((segment) => segment.type === 'rest');
  const rest = restIndex === -1 ? undefined : segments[restIndex];
  return {
    definition,
    template,
    prefix: restIndex === -1 ? segments : segments.slice(0, restIndex),
    rest: rest?.type === 'rest' ? rest : undefined,
    suffix: restIndex === -1 ? [] : segments.slice(restIndex + 1),
    literals: segments.filter((segment) => segment.type === 'literal').length,
  };
}

/** Routes are grouped by their first segment, and under `/repos` by the resource segment. */
function bucketOf(segments: readonly string[]): string {
  const [first = ''] = segments;
  return first === 'repos' ? `repos/${segments[3] ?? ''}` : first;
}

function matchSegment(segment: Segment, value: string, params: Record<string, string>): boolean {
  if (segment.type === 'literal') return segment.value === value;
  if (segment.type === 'rest') return false;
  if (!segment.test(value)) return false;
  params[segment.name] = value;
  return true;
}

function matchCompiled(route: CompiledRoute, segments: readonly string[]): RouteParams | undefined {
  const { prefix, rest, suffix } = route;
  const fixed = prefix.length + suffix.length;
  if (rest === undefined ? segments.length !== fixed : segments.length < fixed + rest.min) {
    return undefined;
  }
  const params: Record<string, string> = {};
  for (let index = 0; index < prefix.length; index += 1) {
    const segment = prefix[index];
    const value = segments[index];
    if (segment === undefined || value === undefined) return undefined;
    if (!matchSegment(segment, value, params)) return undefined;
  }
  if (rest === undefined) return params;
  const suffixStart = segments.length - suffix.length;
  for (let index = 0; index < suffix.length; index += 1) {
    const segment = suffix[index];
    const value = segments[suffixStart + index];
    if (segment === undefined || value === undefined) return undefined;
    if (!matchSegment(segment, value, params)) return undefined;
  }
  params[rest.name] = segments.slice(prefix.length, suffixStart).join('/');
  return params;
}

/**
 * Compiles a route table into a matcher. Templates are grouped by first segment (and, under
 * `/repos/{owner}/{repo}`, by the resource segment); within a group, templates with more literal
 * segments are tried first, then in table order, and a route's `where` condition must hold.
 */
export function createRouteMatcher(table: readonly RouteDefinition[]): RouteMatcher {
  const buckets = new Map<string, CompiledRoute[]>();
  for (const definition of table) {
    for (const template of definition.templates) {
      const compiled = compile(definition, template);
      const key = bucketOf(template.slice(1).split('/'));
      const bucket = buckets.get(key) ?? [];
      bucket.push(compiled);
      buckets.set(key, bucket);
    }
  }
  for (const bucket of buckets.values()) bucket.sort((a, b) => b.literals - a.literals);
  return (segments) => {
    const bucket = buckets.get(bucketOf(segments));
    if (bucket === undefined) return undefined;
    for (const route of bucket) {
      const params = matchCompiled(route, segments);
      if (params === undefined) continue;
      if (route.definition.where !== undefined && !route.definition.where(params)) continue;
      return { definition: route.definition, template: route.template, params };
    }
    return undefined;
  };
}
