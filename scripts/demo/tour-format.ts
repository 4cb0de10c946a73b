import type { LoggedRequest } from '../../packages/forge-sim/src/index.ts';

/** The request-log fields the tour shows. */
export type ForgeRequestView = Pick<
  LoggedRequest,
  'method' | 'host' | 'path' | 'query' | 'credential' | 'status'
>;

const INSTALLATION_LABEL = /^inst-(\d+)-\d+$/;

/**
 * Names the credential of a simulated-GitHub request for a reader: `anonymous`, the app's JWT,
 * an installation token, or the name the demo gave a PAT. Never a secret: the simulator's log
 * holds labels only.
 *
 * @param label - the request log's credential label (`anonymous`, `jwt`, `pat-3`, `inst-77-5`)
 * @param names - what the demo calls each PAT label
 */
export function describeCredential(label: string, names: ReadonlyMap<string, string>): string {
  if (label === 'anonymous') return 'anonymous';
  if (label === 'jwt') return "the app's JWT";
  const installation = INSTALLATION_LABEL.exec(label);
  if (installation !== null) return `installation ${installation[1] ?? '?'} token`;
  return names.get(label) ?? label;
}

/**
 * The requests the simulated GitHub saw during one step, one line each, consecutive repeats
 * folded into `×N`.
 *
 * @param entries - request-log entries, oldest first
 * @param names - what the demo calls each PAT label
 * @returns the lines; `none` when the step sent nothing upstream
 */
export function formatForgeRequests(
  entries: readonly ForgeRequestView[],
  names: ReadonlyMap<string, string>,
): readonly string[] {
  const lines: { text: string; count: number }[] = [];
  for (const entry of entries) {
    const target = entry.query === '' ? entry.path : `${entry.path}?${entry.query}`;
    const host = entry.host === 'api' ? '' : `${entry.host} `;
    const text = `${entry.method} ${host}${target} as ${describeCredential(entry.credential, names)} → ${String(entry.status)}`;
    const last = lines.at(-1);
    if (last?.text === text) last.count += 1;
    else lines.push({ text, count: 1 });
  }
  if (lines.length === 0) return ['none'];
  return lines.map(({ text, count }) => (count === 1 ? text : `${text} (×${String(count)})`));
}

function field(value: unknown, key: string): unknown {
  return typeof value === 'object' && value !== null
    ? (value as Record<string, unknown>)[key]
    : undefined;
}

/** The parts of a relay envelope the tour shows and checks. */
export interface EnvelopeSummary {
  readonly status: unknown;
  readonly cache: unknown;
  readonly routeKind: unknown;
  /** `pat reader-1`, `forge_app widgets-app`, or the token-free backend (`forge_public`). */
  readonly servedBy: string;
}

/**
 * Reads the fields the tour shows from an envelope printed by `relay request`.
 *
 * @param envelope - the parsed JSON of the envelope
 */
export function summarizeEnvelope(envelope: unknown): EnvelopeSummary {
  const relay = field(envelope, 'relay');
  const identity = field(envelope, 'identity');
  const identityId = field(identity, 'id');
  const backend = field(relay, 'backend');
  let servedBy = 'cache';
  if (typeof identityId === 'string') servedBy = `${String(field(identity, 'kind'))} ${identityId}`;
  else if (typeof backend === 'string') servedBy = `${backend} (no pooled identity)`;
  return {
    status: field(envelope, 'status'),
    cache: field(relay, 'cache'),
    routeKind: field(relay, 'route_kind'),
    servedBy,
  };
}

/** One line for an {@link EnvelopeSummary}. */
export function formatEnvelopeSummary(summary: EnvelopeSummary): string {
  return `status ${String(summary.status)} · relay.cache ${String(summary.cache)} · route ${String(summary.routeKind)} · served by ${summary.servedBy}`;
}

/** The error line `relay: <message> (<code>[, reason <r>][, request <id>])` of the CLI, parsed. */
export interface CliErrorLine {
  readonly code: string;
  readonly reason: string | undefined;
}

const ERROR_LINE = /^relay: .*\((\w+)(?:, reason (\w+))?(?:, request [^)]+)?\)\s*$/m;

/**
 * Finds the CLI's error line in its stderr and reads its code and reason.
 *
 * @returns undefined when stderr has no such line
 */
export function parseCliErrorLine(stderr: string): CliErrorLine | undefined {
  const match = ERROR_LINE.exec(stderr);
  if (match?.[1] === undefined) return undefined;
  return { code: match[1], reason: match[2] };
}

const SHELL_SAFE = /^[\w@%+=:,./-]+$/;

/**
 * Quotes an argument for display in a POSIX shell command line: safe words stay as they are,
 * anything else is single-quoted.
 */
export function quoteShellArgument(argument: string): string {
  return SHELL_SAFE.test(argument) ? argument : `'${argument.replaceAll("'", "'\\''")}'`;
}
