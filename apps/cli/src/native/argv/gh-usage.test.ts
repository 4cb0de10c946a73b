import { describe, expect, it } from 'vitest';
import type { GhArgvError } from './gh-argv-parser.js';
import { SERVED_COMMAND_FLAGS, usageSpecOf } from './gh-command-table.js';
import type { GhFlagSpec, ServedCommandName } from './gh-command-table.js';
import {
  formatArgvError,
  formatUsageError,
  renderCommandUsage,
  renderFlagUsages,
} from './gh-usage.js';

/**
 * gh's usage of eight served commands, byte for byte as gh 2.23.0 prints it after a flag error
 * (`gh pr view --bogus`, Debian's gh): their flags are declared identically in gh v2.60.0, and
 * the rendering (pflag v1.0.5, gh's rootUsageFunc) is the same. One line per array entry; the
 * last is the two spaces go-gh's indent leaves after the final newline.
 */
const GH_USAGES: Readonly<Partial<Record<ServedCommandName, readonly string[]>>> = {
  'pr view': [
    'Usage:  gh pr view [<number> | <url> | <branch>] [flags]',
    '',
    'Flags:',
    '  -c, --comments          View pull request comments',
    '  -q, --jq expression     Filter JSON output using a jq expression',
    '      --json fields       Output JSON with the specified fields',
    '  -t, --template string   Format JSON output using a Go template; see "gh help formatting"',
    '  -w, --web               Open a pull request in the browser',
    '  ',
  ],
  'pr list': [
    'Usage:  gh pr list [flags]',
    '',
    'Flags:',
    '      --app string        Filter by GitHub App author',
    '  -a, --assignee string   Filter by assignee',
    '  -A, --author string     Filter by author',
    '  -B, --base string       Filter by base branch',
    '  -d, --draft             Filter by draft state',
    '  -H, --head string       Filter by head branch',
    '  -q, --jq expression     Filter JSON output using a jq expression',
    '      --json fields       Output JSON with the specified fields',
    '  -l, --label strings     Filter by label',
    '  -L, --limit int         Maximum number of items to fetch (default 30)',
    '  -S, --search query      Search pull requests with query',
    '  -s, --state string      Filter by state: {open|closed|merged|all} (default "open")',
    '  -t, --template string   Format JSON output using a Go template; see "gh help formatting"',
    '  -w, --web               List pull requests in the web browser',
    '  ',
  ],
  'pr diff': [
    'Usage:  gh pr diff [<number> | <url> | <branch>] [flags]',
    '',
    'Flags:',
    '      --color string   Use color in diff output: {always|never|auto} (default "auto")',
    '      --name-only      Display only names of changed files',
    '      --patch          Display diff in patch format',
    '  -w, --web            Open the pull request diff in the browser',
    '  ',
  ],
  'issue view': [
    'Usage:  gh issue view {<number> | <url>} [flags]',
    '',
    'Flags:',
    '  -c, --comments          View issue comments',
    '  -q, --jq expression     Filter JSON output using a jq expression',
    '      --json fields       Output JSON with the specified fields',
    '  -t, --template string   Format JSON output using a Go template; see "gh help formatting"',
    '  -w, --web               Open an issue in the browser',
    '  ',
  ],
  'issue list': [
    'Usage:  gh issue list [flags]',
    '',
    'Flags:',
    '      --app string         Filter by GitHub App author',
    '  -a, --assignee string    Filter by assignee',
    '  -A, --author string      Filter by author',
    '  -q, --jq expression      Filter JSON output using a jq expression',
    '      --json fields        Output JSON with the specified fields',
    '  -l, --label strings      Filter by label',
    '  -L, --limit int          Maximum number of issues to fetch (default 30)',
    '      --mention string     Filter by mention',
    '  -m, --milestone string   Filter by milestone number or title',
    '  -S, --search query       Search issues with query',
    '  -s, --state string       Filter by state: {open|closed|all} (default "open")',
    '  -t, --template string    Format JSON output using a Go template; see "gh help formatting"',
    '  -w, --web                List issues in the web browser',
    '  ',
  ],
  'repo view': [
    'Usage:  gh repo view [<repository>] [flags]',
    '',
    'Flags:',
    '  -b, --branch string     View a specific branch of the repository',
    '  -q, --jq expression     Filter JSON output using a jq expression',
    '      --json fields       Output JSON with the specified fields',
    '  -t, --template string   Format JSON output using a Go template; see "gh help formatting"',
    '  -w, --web               Open a repository in the browser',
    '  ',
  ],
  'release view': [
    'Usage:  gh release view [<tag>] [flags]',
    '',
    'Flags:',
    '  -q, --jq expression     Filter JSON output using a jq expression',
    '      --json fields       Output JSON with the specified fields',
    '  -t, --template string   Format JSON output using a Go template; see "gh help formatting"',
    '  -w, --web               Open the release in the browser',
    '  ',
  ],
  'label list': [
    'Usage:  gh label list [flags]',
    '',
    'Flags:',
    '  -q, --jq expression     Filter JSON output using a jq expression',
    '      --json fields       Output JSON with the specified fields',
    '  -L, --limit int         Maximum number of labels to fetch (default 30)',
    '      --order string      Order of labels returned: {asc|desc} (default "asc")',
    '  -S, --search string     Search label names and descriptions',
    '      --sort string       Sort fetched labels: {created|name} (default "created")',
    '  -t, --template string   Format JSON output using a Go template; see "gh help formatting"',
    '  -w, --web               List labels in the web browser',
    '  ',
  ],
};

/** `release list` gained `--order` and the JSON flags after 2.23: its v2.60 usage, by the same rules. */
const RELEASE_LIST_USAGE = [
  'Usage:  gh release list [flags]',
  '',
  'Flags:',
  '      --exclude-drafts         Exclude draft releases',
  '      --exclude-pre-releases   Exclude pre-releases',
  '  -q, --jq expression          Filter JSON output using a jq expression',
  '      --json fields            Output JSON with the specified fields',
  '  -L, --limit int              Maximum number of items to fetch (default 30)',
  '  -O, --order string           Order of releases returned: {asc|desc} (default "desc")',
  '  -t, --template string        Format JSON output using a Go template; see "gh help formatting"',
  '  ',
];

function usageOf(command: ServedCommandName): string {
  const spec = SERVED_COMMAND_FLAGS[command];
  const declared = usageSpecOf(spec);
  if (declared === undefined) throw new Error(`${command} has no usage`);
  return renderCommandUsage(command, declared, spec.flags);
}

describe('renderCommandUsage: gh’s usage of each served command', () => {
  it.each(Object.entries(GH_USAGES))('%s', (command, lines) => {
    expect(usageOf(command as ServedCommandName)).toBe(lines.join('\n'));
  });

  it('gist list (v2.60 flags: --filter and --include-content are newer than gh 2.23)', () => {
    expect(usageOf('gist list')).toBe(
      [
        'Usage:  gh gist list [flags]',
        '',
        'Flags:',
        '      --filter expression   Filter gists using a regular expression',
        "      --include-content     Include gists' file content when filtering",
        '  -L, --limit int           Maximum number of gists to fetch (default 10)',
        '      --public              Show only public gists',
        '      --secret              Show only secret gists',
        '  ',
      ].join('\n'),
    );
  });

  it('release list (v2.60 flags)', () => {
    expect(usageOf('release list')).toBe(RELEASE_LIST_USAGE.join('\n'));
  });
});

describe('renderFlagUsages: pflag’s FlagUsages', () => {
  const flag = (over: Partial<GhFlagSpec> & { name: string }): GhFlagSpec => ({
    takesValue: true,
    repeatable: false,
    type: 'string',
    usage: '',
    defaultValue: '',
    ...over,
  });

  it.each<[string, GhFlagSpec[], string]>([
    ['no flags', [], ''],
    [
      'aligns usages two columns past the longest name, sorted by name (byte order)',
      [flag({ name: 'b', usage: 'B' }), flag({ name: 'Z', short: 'z', usage: 'Z' })],
      '  -z, --Z string   Z\n      --b string   B\n',
    ],
    [
      'a back-quoted word names the value',
      [flag({ name: 'q', usage: 'with `thing` here' })],
      '      --q thing   with thing here\n',
    ],
    [
      'only the first back-quoted pair; a lone back quote leaves the type',
      [flag({ name: 'q', usage: 'one `quote' })],
      '      --q string   one `quote\n',
    ],
    [
      'defaults other than the zero value',
      [
        flag({ name: 'a', type: 'bool', takesValue: false, defaultValue: 'true', usage: 'A' }),
        flag({ name: 'b', type: 'int', defaultValue: '0', usage: 'B' }),
        flag({ name: 'c', type: 'stringSlice', defaultValue: '[]', usage: 'C' }),
        flag({ name: 'd', type: 'string', defaultValue: 'x"y', usage: 'D' }),
      ],
      [
        '      --a           A (default true)',
        '      --b int       B',
        '      --c strings   C',
        '      --d string    D (default "x\\"y")',
        '',
      ].join('\n'),
    ],
    [
      'a multi-line usage continues under the usage column',
      [flag({ name: 'ab', usage: 'one\ntwo' })],
      '      --ab string   one\n                    two\n',
    ],
  ])('%s', (_name, flags, expected) => {
    expect(renderFlagUsages(flags)).toBe(expected);
  });
});

describe('formatArgvError: pflag’s parse errors', () => {
  const limit = SERVED_COMMAND_FLAGS['pr list'].flags.find((f) => f.name === 'limit');
  const color = SERVED_COMMAND_FLAGS['pr diff'].flags.find((f) => f.name === 'color');
  if (limit === undefined || color === undefined) throw new Error('missing flags');
  type Shown = Extract<GhArgvError, { code: 'missing_value' | 'invalid_value' }>;

  it.each<[Shown, string | undefined]>([
    [{ code: 'missing_value', flag: limit, form: 'long' }, 'flag needs an argument: --limit'],
    [{ code: 'missing_value', flag: limit, form: 'short' }, "flag needs an argument: 'L' in -L"],
    [
      { code: 'invalid_value', flag: limit, value: 'a\tb', cause: 'int_syntax' },
      'invalid argument "a\\tb" for "-L, --limit" flag: strconv.ParseInt: parsing "a\\tb": invalid syntax',
    ],
    [
      { code: 'invalid_value', flag: limit, value: '1e99', cause: 'int_range' },
      'invalid argument "1e99" for "-L, --limit" flag: strconv.ParseInt: parsing "1e99": value out of range',
    ],
    [
      { code: 'invalid_value', flag: color, value: 'x', cause: 'enum' },
      'invalid argument "x" for "--color" flag: valid values are {always|never|auto}',
    ],
    [{ code: 'invalid_value', flag: limit, value: 'dix-huitième', cause: 'int_syntax' }, undefined],
  ])('%j → %j', (error, text) => {
    expect(formatArgvError(error)).toBe(text);
  });
});

describe('formatUsageError: gh’s printError of a flag error', () => {
  it('adds a blank line unless the message ends in a newline, then the usage and a newline', () => {
    expect(formatUsageError('bad', 'Usage:  x')).toBe('bad\n\nUsage:  x\n');
    expect(formatUsageError('bad\n', 'Usage:  x')).toBe('bad\n\nUsage:  x\n');
  });
});
