import { basename } from 'node:path';
import type {
  ArgvPart,
  AssetReference,
  ContentField,
  ContentSource,
  PublicationClassification,
  PublicationKind,
  StructuralRefusalCode,
} from './publication-model.js';
import { UNMODELED } from './publication-model.js';
import {
  isFlagTrue,
  occurrencesOf,
  parsePublicationArgv,
  singleValue,
} from './publication-flag-grammar.js';
import type { ParsedPublicationArgv, PublicationFlagSpec } from './publication-flag-grammar.js';

/**
 * What a flag of a modeled command is:
 * - `plain`: a structural value (a label, a login, a branch, a tag, the repository): checked
 *   against the policy and refused on a match, never rewritten (it names an existing object);
 * - `title`: content passed inline (`--title=<rewritten>`): gh has no title file;
 * - `text` / `text_file`: the command's long text (`--body`/`--body-file`,
 *   `--notes`/`--notes-file`): rewritten and passed through a private snapshot file;
 * - `unmodeled`: its presence makes the invocation not modeled (editors, browsers, templates,
 *   autofill, recovery files, a tag's annotation: content relay cannot see before gh
 *   publishes it).
 */
type FlagRole = 'plain' | 'title' | 'text' | 'text_file' | 'unmodeled';

interface ModeledFlag extends PublicationFlagSpec {
  readonly role: FlagRole;
}

/** What a command needs besides its flags, checked after parsing. */
type Requirement =
  /** `--title` and one of the text flags (gh prompts otherwise). */
  | 'title_and_text'
  /** One of the text flags. */
  | 'text'
  /** At least one flag other than `-R` (gh opens an interactive editor otherwise). */
  | 'some_flag'
  /** Exactly one of `--approve`, `--request-changes`, `--comment`. */
  | 'review_action'
  /** `--draft` and `--verify-tag` (SPEC.md client rule 16). */
  | 'draft_and_verify_tag'
  | 'none';

interface CommandModel {
  readonly kind: PublicationKind;
  readonly flags: readonly ModeledFlag[];
  readonly minPositionals: number;
  readonly maxPositionals: number;
  /** The snapshot flag gh reads the long text from, and the text's name. */
  readonly text?: { readonly fileFlag: string; readonly name: string };
  /** Positionals from this index on are release assets (`path` or `path#label`). */
  readonly assetsFrom?: number;
  readonly requirement: Requirement;
}

function flag(long: string, short: string | undefined, kind: ModeledFlag['kind'], role: FlagRole) {
  return short === undefined ? { long, kind, role } : { long, short, kind, role };
}

const REPO = flag('repo', 'R', 'string', 'plain');
const TITLE = flag('title', 't', 'string', 'title');
const BODY = flag('body', 'b', 'string', 'text');
const BODY_FILE = flag('body-file', 'F', 'string', 'text_file');
const NOTES = flag('notes', 'n', 'string', 'text');
const NOTES_FILE = flag('notes-file', 'F', 'string', 'text_file');
const EDITOR = flag('editor', 'e', 'bool', 'unmodeled');
const WEB = flag('web', 'w', 'bool', 'unmodeled');
const MILESTONE = flag('milestone', 'm', 'string', 'plain');
const BODY_TEXT = { fileFlag: '--body-file', name: 'body' } as const;
const NOTES_TEXT = { fileFlag: '--notes-file', name: 'notes' } as const;

function editFlags(...nouns: readonly string[]): ModeledFlag[] {
  return nouns.flatMap((noun) => [
    flag(`add-${noun}`, undefined, 'slice', 'plain'),
    flag(`remove-${noun}`, undefined, 'slice', 'plain'),
  ]);
}

/** gh v2.60.0's flag sets of the modeled commands (pkg/cmd/<group>/<verb>/<verb>.go). */
const COMMAND_MODELS: Readonly<Record<string, CommandModel>> = {
  'issue create': {
    kind: 'issue create',
    flags: [
      REPO,
      TITLE,
      BODY,
      BODY_FILE,
      EDITOR,
      WEB,
      flag('assignee', 'a', 'slice', 'plain'),
      flag('label', 'l', 'slice', 'plain'),
      flag('project', 'p', 'slice', 'plain'),
      MILESTONE,
      flag('recover', undefined, 'string', 'unmodeled'),
      flag('template', 'T', 'string', 'unmodeled'),
    ],
    minPositionals: 0,
    maxPositionals: 0,
    text: BODY_TEXT,
    requirement: 'title_and_text',
  },
  'issue edit': {
    kind: 'issue edit',
    flags: [
      REPO,
      TITLE,
      BODY,
      BODY_FILE,
      ...editFlags('assignee', 'label', 'project'),
      MILESTONE,
      flag('remove-milestone', undefined, 'bool', 'plain'),
    ],
    minPositionals: 1,
    maxPositionals: Number.POSITIVE_INFINITY,
    text: BODY_TEXT,
    requirement: 'some_flag',
  },
  'issue comment': {
    kind: 'issue comment',
    flags: [REPO, BODY, BODY_FILE, EDITOR, WEB, flag('edit-last', undefined, 'bool', 'plain')],
    minPositionals: 1,
    maxPositionals: 1,
    text: BODY_TEXT,
    requirement: 'text',
  },
  'pr create': {
    kind: 'pr create',
    flags: [
      REPO,
      TITLE,
      BODY,
      BODY_FILE,
      EDITOR,
      WEB,
      flag('draft', 'd', 'bool', 'plain'),
      flag('base', 'B', 'string', 'plain'),
      flag('head', 'H', 'string', 'plain'),
      flag('fill', 'f', 'bool', 'unmodeled'),
      flag('fill-verbose', undefined, 'bool', 'unmodeled'),
      flag('fill-first', undefined, 'bool', 'unmodeled'),
      flag('reviewer', 'r', 'slice', 'plain'),
      flag('assignee', 'a', 'slice', 'plain'),
      flag('label', 'l', 'slice', 'plain'),
      flag('project', 'p', 'slice', 'plain'),
      MILESTONE,
      flag('no-maintainer-edit', undefined, 'bool', 'plain'),
      flag('recover', undefined, 'string', 'unmodeled'),
      flag('template', 'T', 'string', 'unmodeled'),
      flag('dry-run', undefined, 'bool', 'plain'),
    ],
    minPositionals: 0,
    maxPositionals: 0,
    text: BODY_TEXT,
    requirement: 'title_and_text',
  },
  'pr edit': {
    kind: 'pr edit',
    flags: [
      REPO,
      TITLE,
      BODY,
      BODY_FILE,
      flag('base', 'B', 'string', 'plain'),
      ...editFlags('reviewer', 'assignee', 'label', 'project'),
      MILESTONE,
      flag('remove-milestone', undefined, 'bool', 'plain'),
    ],
    minPositionals: 0,
    maxPositionals: 1,
    text: BODY_TEXT,
    requirement: 'some_flag',
  },
  'pr comment': {
    kind: 'pr comment',
    flags: [REPO, BODY, BODY_FILE, EDITOR, WEB, flag('edit-last', undefined, 'bool', 'plain')],
    minPositionals: 0,
    maxPositionals: 1,
    text: BODY_TEXT,
    requirement: 'text',
  },
  'pr review': {
    kind: 'pr review',
    flags: [
      REPO,
      BODY,
      BODY_FILE,
      flag('approve', 'a', 'bool', 'plain'),
      flag('request-changes', 'r', 'bool', 'plain'),
      flag('comment', 'c', 'bool', 'plain'),
    ],
    minPositionals: 0,
    maxPositionals: 1,
    text: BODY_TEXT,
    requirement: 'review_action',
  },
  'release create': {
    kind: 'release create',
    flags: [
      REPO,
      TITLE,
      NOTES,
      NOTES_FILE,
      flag('draft', 'd', 'bool', 'plain'),
      flag('prerelease', 'p', 'bool', 'plain'),
      flag('target', undefined, 'string', 'plain'),
      flag('discussion-category', undefined, 'string', 'plain'),
      flag('generate-notes', undefined, 'bool', 'plain'),
      flag('notes-start-tag', undefined, 'string', 'plain'),
      flag('latest', undefined, 'bool', 'plain'),
      flag('verify-tag', undefined, 'bool', 'plain'),
      // gh appends the local tag's annotation (`git tag --list`) to the notes: content relay
      // never sees, so a release create with it is refused (its shape is not modeled).
      flag('notes-from-tag', undefined, 'bool', 'unmodeled'),
    ],
    minPositionals: 1,
    maxPositionals: Number.POSITIVE_INFINITY,
    text: NOTES_TEXT,
    assetsFrom: 1,
    requirement: 'draft_and_verify_tag',
  },
  'release edit': {
    kind: 'release edit',
    flags: [
      REPO,
      TITLE,
      NOTES,
      NOTES_FILE,
      flag('draft', undefined, 'bool', 'plain'),
      flag('prerelease', undefined, 'bool', 'plain'),
      flag('latest', undefined, 'bool', 'plain'),
      flag('discussion-category', undefined, 'string', 'plain'),
      flag('target', undefined, 'string', 'plain'),
      flag('tag', undefined, 'string', 'plain'),
      flag('verify-tag', undefined, 'bool', 'plain'),
    ],
    minPositionals: 1,
    maxPositionals: 1,
    text: NOTES_TEXT,
    requirement: 'some_flag',
  },
  'release upload': {
    kind: 'release upload',
    flags: [REPO, flag('clobber', undefined, 'bool', 'plain')],
    minPositionals: 2,
    maxPositionals: Number.POSITIVE_INFINITY,
    assetsFrom: 1,
    requirement: 'none',
  },
};

function hasSingleText(parsed: ParsedPublicationArgv, model: CommandModel): boolean {
  const texts = parsed.occurrences.filter(
    ({ spec }) => roleOf(model, spec.long) === 'text' || roleOf(model, spec.long) === 'text_file',
  );
  return texts.length === 1;
}

function roleOf(model: CommandModel, long: string): FlagRole {
  return model.flags.find((candidate) => candidate.long === long)?.role ?? 'unmodeled';
}

function meetsRequirement(parsed: ParsedPublicationArgv, model: CommandModel): boolean {
  switch (model.requirement) {
    case 'title_and_text':
      return typeof singleValue(parsed, 'title') === 'string' && hasSingleText(parsed, model);
    case 'text':
      return hasSingleText(parsed, model);
    case 'some_flag':
      return parsed.occurrences.some(({ spec }) => spec.long !== 'repo');
    case 'review_action':
      return (
        ['approve', 'request-changes', 'comment'].filter((long) => isFlagTrue(parsed, long))
          .length === 1
      );
    case 'draft_and_verify_tag':
    case 'none':
      return true;
  }
}

/** Whether the content flags appear at most once each, and not both forms of the text. */
function hasUnambiguousContent(parsed: ParsedPublicationArgv, model: CommandModel): boolean {
  const content = parsed.occurrences.filter(({ spec }) => roleOf(model, spec.long) !== 'plain');
  const texts = content.filter(({ spec }) => roleOf(model, spec.long) !== 'title');
  return occurrencesOf(parsed, 'title').length <= 1 && texts.length <= 1;
}

function sourceOfFile(path: string): ContentSource {
  return path === '-' ? { kind: 'stdin' } : { kind: 'file', path };
}

/**
 * An asset argument as gh reads it (`shared.AssetsFromArgs`: the text before the first `#`
 * past position 0 is the file, the rest the display label).
 */
function splitAsset(argument: string): { path: string; label: string | undefined } {
  const hash = argument.indexOf('#');
  if (hash > 0) return { path: argument.slice(0, hash), label: argument.slice(hash + 1) };
  return { path: argument, label: undefined };
}

/** Builds the plan of a strictly parsed, modeled command line. */
function buildPlan(
  argv: readonly string[],
  words: readonly [string, string],
  parsed: ParsedPublicationArgv,
  model: CommandModel,
): PublicationClassification {
  const parts: ArgvPart[] = words.map((value) => ({ kind: 'fixed', value }));
  const fields: ContentField[] = [];
  const assets: AssetReference[] = [];
  const addField = (field: ContentField): number => fields.push(field) - 1;
  for (const occurrence of parsed.occurrences) {
    const role = roleOf(model, occurrence.spec.long);
    if (role === 'title') {
      const field = addField({
        name: 'title',
        source: { kind: 'inline', value: occurrence.value },
      });
      parts.push({ kind: 'inline', field, prefix: '--title=' });
    } else if ((role === 'text' || role === 'text_file') && model.text !== undefined) {
      const source: ContentSource =
        role === 'text'
          ? { kind: 'inline', value: occurrence.value }
          : sourceOfFile(occurrence.value);
      const field = addField({ name: model.text.name, source });
      parts.push({ kind: 'snapshot', field, prefix: `${model.text.fileFlag}=` });
    } else {
      for (let token = 0; token < occurrence.tokens; token++) {
        parts.push({ kind: 'literal', value: argv[occurrence.start + token] ?? '' });
      }
    }
  }
  const positionalParts: ArgvPart[] = [];
  for (const [position, { value }] of parsed.positionals.entries()) {
    if (model.assetsFrom === undefined || position < model.assetsFrom) {
      positionalParts.push({ kind: 'literal', value });
      continue;
    }
    const { path, label } = splitAsset(value);
    assets.push({ path, basename: basename(path) });
    if (label === undefined) {
      positionalParts.push({ kind: 'literal', value: path });
    } else {
      const field = addField({ name: 'asset label', source: { kind: 'inline', value: label } });
      positionalParts.push({ kind: 'inline', field, prefix: `${path}#` });
    }
  }
  if (positionalParts.length > 0) parts.push({ kind: 'fixed', value: '--' }, ...positionalParts);
  return { kind: 'modeled', plan: { kind: model.kind, parts, fields, assets } };
}

/** Whether gh would print the command's help (`--help`, `-h` before any `--`): nothing is published. */
function asksForHelp(argv: readonly string[]): boolean {
  const end = argv.indexOf('--');
  return (end < 0 ? argv : argv.slice(0, end)).some(
    (token) => token === '--help' || token === '-h',
  );
}

function refused(code: StructuralRefusalCode): PublicationClassification {
  return { kind: 'refused', code };
}

/**
 * Classifies a gh argv as one of the modeled publications of client rule 16 (issue and PR
 * create, edit, comment, review; release create, edit, upload), strictly: the command words
 * first (no global flags before them, no aliases), every flag of gh v2.60's set known, the
 * content unambiguous (one title, one text), the required content present. Anything else is
 * {@link UNMODELED}, except a `release create`: it must be modeled with `--draft` and
 * `--verify-tag`, or it is refused (its `--help` stays unmodeled: gh only prints help).
 *
 * @param argv - gh's argv, as given to `relay native`
 * @example
 * ```ts
 * classifyCommandPublication(['issue', 'comment', '3', '--body', 'hi']);
 * // modeled: parts issue comment --body-file=<snapshot 0> -- 3; fields [body 'hi']
 * ```
 */
export function classifyCommandPublication(argv: readonly string[]): PublicationClassification {
  const [group, verb] = argv;
  if (group === undefined || verb === undefined) return UNMODELED;
  const model = COMMAND_MODELS[`${group} ${verb}`];
  if (model === undefined) return UNMODELED;
  const isReleaseCreate = model.requirement === 'draft_and_verify_tag';
  const parsed = parsePublicationArgv(argv, 2, model.flags);
  if (parsed === null) {
    return isReleaseCreate && !asksForHelp(argv) ? refused('release_create_shape') : UNMODELED;
  }
  if (isReleaseCreate && !(isFlagTrue(parsed, 'draft') && isFlagTrue(parsed, 'verify-tag'))) {
    return refused('release_create_requires_draft_and_verify_tag');
  }
  const modeled =
    parsed.occurrences.every(({ spec }) => roleOf(model, spec.long) !== 'unmodeled') &&
    parsed.positionals.length >= model.minPositionals &&
    parsed.positionals.length <= model.maxPositionals &&
    hasUnambiguousContent(parsed, model) &&
    meetsRequirement(parsed, model);
  if (!modeled) return isReleaseCreate ? refused('release_create_shape') : UNMODELED;
  return buildPlan(argv, [group, verb], parsed, model);
}
