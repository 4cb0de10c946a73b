import { isatty } from 'node:tty';
import type { RuleSet } from '@relay/rewrite-engine';
import type { CliDependencies } from '../../cli-dependencies.js';
import { CliError } from '../../cli-error.js';
import { locateNativeCli, nativeEnv } from '../../native-cli.js';
import {
  formatMergeDiagnostics,
  isMergeDiagnosticsEnabled,
  parseMergeDiagnostics,
} from './merge-diagnostics.js';
import { classifyExactHeadMerge } from './merge-exact-head.js';
import { commandOrder } from './native-command-order.js';
import type { CommandOrder } from './native-command-order.js';
import { checkNativeArgv, formatRefusal } from './outbound-content-check.js';
import { loadGuard, readBoundedFile, resolveEndpoint } from './outbound-guard.js';
import { classifyNativeInvocation } from './protected-invocation.js';
import { checkReleaseAssets, formatFileRefusal, readFileFacts } from './publication-assets.js';
import {
  checkFileContents,
  locateFileArguments,
  standardInputContent,
} from './publication-best-effort.js';
import {
  aliasCandidates,
  aliasExpansionTexts,
  findAlias,
  parseAliasList,
} from './publication-alias.js';
import { forcePublicHost } from './publication-child-env.js';
import { classifyCommandPublication } from './publication-commands.js';
import {
  CONTENT_BUDGET_BYTES,
  decodeContent,
  formatContentRefusal,
  sanitizePublication,
} from './publication-content.js';
import type { ContentRefusal } from './publication-content.js';
import type {
  ContentSource,
  PublicationClassification,
  PublicationPlan,
} from './publication-model.js';
import { STRUCTURAL_REFUSAL_MESSAGES, UNMODELED } from './publication-model.js';
import { classifyRawRestPublication } from './publication-raw-rest.js';
import { withSnapshotDirectory } from './snapshot-directory.js';
import type { SnapshotDirectory } from './snapshot-directory.js';

/** Options of {@link dispatchNative}. */
export interface NativeDispatchOptions {
  /** Runs once every check has passed, right before gh starts (the delegation notice). */
  readonly beforeRun?: () => void;
  /** Where the merge diagnostics record and a captured gh's stderr go. Default: stderr. */
  readonly stderr?: NodeJS.WritableStream;
}

/**
 * Classifies a gh argv as a modeled publication of client rule 16: the exact-head squash merge,
 * an allowlisted raw REST write, or a modeled gh command; otherwise {@link UNMODELED}.
 */
export function classifyPublication(argv: readonly string[]): PublicationClassification {
  for (const classify of [
    classifyExactHeadMerge,
    classifyRawRestPublication,
    classifyCommandPublication,
  ]) {
    const verdict = classify(argv);
    if (verdict.kind !== 'unmodeled') return verdict;
  }
  return UNMODELED;
}

function refuse(refusal: ContentRefusal): never {
  throw new CliError('string_rewrite_blocked', { message: formatContentRefusal(refusal) });
}

/** Reads the bytes of a content file or of standard input, at most the budget plus one byte. */
class ContentReader {
  private stdinUsed = false;

  constructor(private readonly deps: CliDependencies) {}

  async read(source: Exclude<ContentSource, { kind: 'inline' }>, field: string): Promise<string> {
    let bytes: Uint8Array;
    if (source.kind === 'stdin') {
      if (this.stdinUsed) refuse({ code: 'stdin_twice' });
      this.stdinUsed = true;
      bytes = await this.deps.readStdin(CONTENT_BUDGET_BYTES);
    } else {
      try {
        bytes = await readBoundedFile(source.path, CONTENT_BUDGET_BYTES + 1);
      } catch {
        refuse({ code: 'content_unreadable', field });
      }
    }
    if (bytes.byteLength > CONTENT_BUDGET_BYTES) refuse({ code: 'content_budget', field });
    const text = decodeContent(bytes);
    if (text === null) refuse({ code: 'content_not_text', field });
    return text;
  }
}

/**
 * Runs the native gh with the public host forced; captured when the merge record is asked for.
 * `stdinFile` (a checked snapshot) replaces the inherited standard input.
 */
async function runChild(
  deps: CliDependencies,
  argv: readonly string[],
  options: NativeDispatchOptions,
  diagnostics: boolean,
  stdinFile?: string,
): Promise<number> {
  options.beforeRun?.();
  const path = await locateNativeCli(deps);
  const env = forcePublicHost(nativeEnv(deps.env));
  try {
    if (stdinFile !== undefined) return await deps.execInherited(path, argv, env, { stdinFile });
    if (!diagnostics) return await deps.execInherited(path, argv, env);
    const [first, ...rest] = argv;
    const output = await deps.runProcess(path, [first ?? 'api', '--include', ...rest], { env });
    const stderr = options.stderr ?? process.stderr;
    stderr.write(output.stderr);
    stderr.write(formatMergeDiagnostics(parseMergeDiagnostics(output.stdout)));
    return output.code ?? 1;
  } catch {
    throw new CliError('native_cli_missing', { message: 'The native CLI could not be started.' });
  }
}

/** Renders the plan's argv with the sanitized texts and their snapshot files. */
async function renderArgv(
  plan: PublicationPlan,
  texts: readonly string[],
  directory: SnapshotDirectory | undefined,
): Promise<string[]> {
  const argv: string[] = [];
  for (const part of plan.parts) {
    switch (part.kind) {
      case 'literal':
      case 'fixed':
        argv.push(part.value);
        break;
      case 'inline':
        argv.push(`${part.prefix}${texts[part.field] ?? ''}`);
        break;
      case 'snapshot': {
        if (directory === undefined) throw new Error('a snapshot part needs a snapshot directory');
        const file = await directory.write(`field-${String(part.field)}`, texts[part.field] ?? '');
        argv.push(`${part.prefix}${file}`);
        break;
      }
    }
  }
  return argv;
}

/** A modeled publication: read, check assets, sanitize, snapshot, run. */
async function runModeled(
  deps: CliDependencies,
  guard: RuleSet,
  plan: PublicationPlan,
  options: NativeDispatchOptions,
): Promise<number> {
  const reader = new ContentReader(deps);
  const texts: string[] = [];
  for (const field of plan.fields) {
    texts.push(
      field.source.kind === 'inline'
        ? field.source.value
        : await reader.read(field.source, field.name),
    );
  }
  const facts = await Promise.all(plan.assets.map((asset) => readFileFacts(asset.path)));
  const assets = checkReleaseAssets(
    plan.assets.map((asset, index) => ({
      basename: asset.basename,
      facts: facts[index] ?? { kind: 'missing' },
    })),
  );
  if (!assets.ok) {
    throw new CliError('usage_error', {
      message: formatFileRefusal('release asset', assets.error),
    });
  }
  const sanitized = sanitizePublication(guard, plan, texts);
  if (!sanitized.ok) refuse(sanitized.error);
  const diagnostics = plan.merge === true && isMergeDiagnosticsEnabled(deps.env);
  if (!plan.parts.some((part) => part.kind === 'snapshot')) {
    return runChild(deps, await renderArgv(plan, sanitized.value, undefined), options, diagnostics);
  }
  return withSnapshotDirectory(async (directory) => {
    const argv = await renderArgv(plan, sanitized.value, directory);
    return runChild(deps, argv, options, diagnostics);
  });
}

/**
 * When the argv's command is not one of gh's own and the policy has rules, reads gh's alias
 * table (`gh alias list`, run like the child) and, when the command is an alias, checks its
 * expansion as gh will read it ({@link aliasExpansionTexts}): a match refuses.
 *
 * @throws CliError `string_rewrite_blocked`, `native_cli_missing`
 */
async function checkAliasExpansion(
  deps: CliDependencies,
  guard: RuleSet,
  argv: readonly string[],
): Promise<void> {
  if (guard.rules.length === 0 || aliasCandidates(argv).length === 0) return;
  const path = await locateNativeCli(deps);
  let stdout: Uint8Array;
  try {
    const env = forcePublicHost(nativeEnv(deps.env));
    stdout = (await deps.runProcess(path, ['alias', 'list'], { env })).stdout;
  } catch {
    throw new CliError('native_cli_missing', { message: 'The native CLI could not be started.' });
  }
  const alias = findAlias(argv, parseAliasList(new TextDecoder().decode(stdout)));
  if (alias === undefined) return;
  for (const text of aliasExpansionTexts(alias.entry, alias.args)) {
    const checked = guard.check(text);
    if (!checked.ok) {
      const where = 'the gh alias expansion';
      throw new CliError('string_rewrite_blocked', {
        message: formatRefusal({ kind: 'refuse', where, failure: checked.error }),
      });
    }
  }
}

/** Whether gh will publish what it reads from this process's standard input. */
function readsStandardInputContent(argv: readonly string[]): boolean {
  const mode = standardInputContent(argv);
  return mode === 'always' || (mode === 'when_piped' && !isatty(0));
}

/**
 * An unmodeled command (`argv` as gh runs it, `order` as cobra reads it): the argv check, its
 * content files checked and handed to gh as private snapshots of the checked text (each file
 * gh reads only for its content, and a named `-`, is swapped for its snapshot's path, so a
 * file changed after the check publishes nothing new; the standard input `gist create`,
 * `workflow run --json` and `variable set` publish is fed from a snapshot).
 */
async function runBestEffort(
  deps: CliDependencies,
  guard: RuleSet,
  argv: readonly string[],
  order: CommandOrder,
  options: NativeDispatchOptions,
): Promise<number> {
  const verdict = checkNativeArgv(guard, argv);
  if (verdict.kind === 'refuse') {
    throw new CliError('string_rewrite_blocked', { message: formatRefusal(verdict) });
  }
  await checkAliasExpansion(deps, guard, argv);
  // Located in cobra's order, swapped at their place in the argv gh runs (unchanged).
  const files = locateFileArguments(order.argv).map((file) => ({
    ...file,
    index: order.original[file.index] ?? file.index,
  }));
  const reader = new ContentReader(deps);
  const texts: string[] = [];
  for (const file of files) {
    texts.push(
      await reader.read(
        file.path === '-' ? { kind: 'stdin' } : { kind: 'file', path: file.path },
        'content file',
      ),
    );
  }
  const stdinContent = readsStandardInputContent(order.argv)
    ? await reader.read({ kind: 'stdin' }, 'content file')
    : undefined;
  const checked = checkFileContents(
    guard,
    stdinContent === undefined ? texts : [...texts, stdinContent],
  );
  if (!checked.ok) refuse(checked.error);
  const swapped = files.flatMap((file, position) =>
    file.named === true ? [] : [{ file, text: texts[position] ?? '' }],
  );
  if (swapped.length === 0 && stdinContent === undefined) {
    return runChild(deps, argv, options, false);
  }
  return withSnapshotDirectory(async (directory) => {
    const replaced = [...argv];
    for (const [position, { file, text }] of swapped.entries()) {
      const name = file.path === '-' ? 'stdin' : `file-${String(position)}`;
      replaced[file.index] = `${file.prefix}${await directory.write(name, text)}`;
    }
    const input =
      stdinContent === undefined ? undefined : await directory.write('input', stdinContent);
    return runChild(deps, replaced, options, false, input);
  });
}

/**
 * The final native dispatch (SPEC.md client rules 13, 15, 16): every native gh run goes
 * through here.
 * - Exempt invocations (rule 15) run as they are.
 * - Protected ones need a login and a fresh policy; then a modeled publication
 *   ({@link classifyPublication}) is sanitized and run from private snapshots, a structurally
 *   refused shape fails with `usage_error`, and anything else gets the best-effort filter
 *   (rule 15's argv check, its content files checked within the 1 MiB budget).
 * - Every child runs with the public host forced and GH_REPO removed; the exact-head merge
 *   prints the diagnostics record under RELAY_DIAGNOSTICS=1.
 *
 * @param deps - the effects
 * @param argv - gh's argv, as given to `relay native`
 * @param options - the hook before gh starts, the stderr of the record
 * @returns gh's exit code
 * @throws CliError `string_rewrite_policy_failure`, `string_rewrite_blocked`, `usage_error`,
 *   `native_cli_missing`; gh does not run then
 */
export async function dispatchNative(
  deps: CliDependencies,
  argv: readonly string[],
  options: NativeDispatchOptions = {},
): Promise<number> {
  if (classifyNativeInvocation(argv).kind === 'exempt') return runChild(deps, argv, options, false);
  const guard = await loadGuard(deps, await resolveEndpoint(deps));
  // Read in cobra's order: flags may stand before the command words (`gh -R o/r issue …`).
  const order = commandOrder(argv);
  const classification = classifyPublication(order.argv);
  switch (classification.kind) {
    case 'refused':
      throw new CliError('usage_error', {
        message: STRUCTURAL_REFUSAL_MESSAGES[classification.code],
      });
    case 'modeled':
      return runModeled(deps, guard, classification.plan, options);
    case 'unmodeled':
      return runBestEffort(deps, guard, argv, order, options);
  }
}
