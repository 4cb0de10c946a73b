import type { GhRepository } from '../argv/repo-selector.js';
import type { GoWorkflow } from '../export/run-export.js';
import { goPathBase } from '../export/workflow-export.js';
import type { RelayPort } from '../relay-port.js';
import { UNPROVED, readWorkflow, readWorkflowPages } from './run-reads.js';
import type { ReadStep } from './run-reads.js';

/** gh's workflow states (`workflow/shared`): `--all` adds the disabled ones. */
export const ACTIVE_STATES: readonly string[] = ['active'];
/** Every state gh's `run list --all` accepts by name. */
export const ALL_STATES: readonly string[] = ['active', 'disabled_manually', 'disabled_inactivity'];

/** How gh reads a workflow selector (`FindWorkflow`), as far as the relay serves it. */
export type WorkflowSelectorKind =
  /** A decimal id or a `.yml`/`.yaml` file name: `/actions/workflows/{selector}`. */
  | 'by_id'
  /** Anything else: the workflow list, matched by name (case-folded). */
  | 'by_name'
  /** A shape gh reads in a way not modelled (a signed or zero-padded id, a path to escape). */
  | 'unproved';

const MAX_INT64 = (1n << 63n) - 1n;

/**
 * Classifies a selector as gh's `FindWorkflow` does: `strconv.Atoi` succeeds or the name ends
 * in `.yml`/`.yaml` (any case) → by id; otherwise by name. Ids gh would send in another
 * spelling than REST reads the same way (`+1`, `007`) and file names `url.PathEscape` would
 * change are unproved.
 */
export function classifyWorkflowSelector(selector: string): WorkflowSelectorKind {
  if (/^[+-]?\d+$/.test(selector)) {
    const digits = selector.replace(/^[+-]/, '');
    const value = BigInt(digits);
    const fitsInt = selector.startsWith('-') ? value <= MAX_INT64 + 1n : value <= MAX_INT64;
    // Beyond int64 Atoi fails: gh looks the digits up as a name.
    if (!fitsInt) return 'by_name';
    return /^(0|[1-9]\d*)$/.test(selector) ? 'by_id' : 'unproved';
  }
  if (/\.ya?ml$/i.test(selector)) {
    return /^[A-Za-z0-9._~-]+$/.test(selector) && selector !== '.' && selector !== '..'
      ? 'by_id'
      : 'unproved';
  }
  return 'by_name';
}

/**
 * Go's `strings.EqualFold` for the cases the relay proves: an ASCII selector against any name
 * (the only non-ASCII letters folding to ASCII are the Kelvin sign and the long s); a
 * non-ASCII selector is `undefined` (unproved).
 */
export function equalFoldAscii(name: string, selector: string): boolean | undefined {
  // eslint-disable-next-line no-control-regex -- the ASCII range
  if (/[^\u0000-\u007f]/.test(selector)) return undefined;
  const folded = name.replace(/\u212a/g, 'k').replace(/\u017f/g, 's');
  // eslint-disable-next-line no-control-regex -- the ASCII range
  if (/[^\u0000-\u007f]/.test(folded)) return false;
  return folded.toLowerCase() === selector.toLowerCase();
}

/** What {@link findWorkflow} needs besides the port. */
export interface FindWorkflowOptions {
  readonly repo: GhRepository;
  readonly selector: string;
  /** The states a name may match (`ResolveWorkflow`'s `states`). */
  readonly states: readonly string[];
  /** The most workflow-list pages a name lookup reads (SPEC.md client rule 10 bounds). */
  readonly maxPages: number;
}

/**
 * gh's `ResolveWorkflow` without a prompt (stdout is not a terminal): an empty selector is
 * gh's `empty workflow selector` (no read); by id or file name one read (a 404 is gh's REST
 * error); by name the workflow list, case-folded name and state
 * matched — none is `could not find any workflows named <selector>`, several is
 * `could not resolve to a unique workflow; found: <file> …` (gh cannot prompt), both exit 1.
 */
export async function findWorkflow(
  port: RelayPort,
  options: FindWorkflowOptions,
): Promise<ReadStep<GoWorkflow>> {
  const { repo, selector } = options;
  // gh's FindWorkflow refuses an empty selector before any request (`workflow view ""`).
  if (selector === '') return { kind: 'error', stderr: 'empty workflow selector\n' };
  switch (classifyWorkflowSelector(selector)) {
    case 'unproved':
      return UNPROVED;
    case 'by_id':
      return readWorkflow(port, repo, selector);
    case 'by_name':
      break;
  }
  const listed = await readWorkflowPages(port, { repo, limit: 0, maxPages: options.maxPages });
  if (listed.kind !== 'ok') return listed;
  const matches: GoWorkflow[] = [];
  for (const workflow of listed.value) {
    const same = equalFoldAscii(workflow.name, selector);
    if (same === undefined) return UNPROVED;
    if (same && options.states.includes(workflow.state)) matches.push(workflow);
  }
  const [first] = matches;
  if (first === undefined) {
    return { kind: 'error', stderr: `could not find any workflows named ${selector}\n` };
  }
  if (matches.length > 1) {
    const found = matches.map((workflow) => ` ${goPathBase(workflow.path)}`).join('');
    return { kind: 'error', stderr: `could not resolve to a unique workflow; found:${found}\n` };
  }
  return { kind: 'ok', value: first };
}
