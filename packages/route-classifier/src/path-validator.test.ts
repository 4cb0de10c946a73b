import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PATH_MAX_LENGTH, validatePath, type PathRule } from './path-validator.js';

const R = '/repos/octocat/Hello-World';

describe('validatePath accepts real GitHub paths', () => {
  it.each([
    ['/'],
    ['/user'],
    ['/rate_limit'],
    [R],
    [`${R}/contents/.github/workflows/ci.yml`],
    [`${R}/contents/docs/getting%20started.md`],
    [`${R}/contents/a%09b.txt`],
    [`${R}/contents/%09notes.txt`],
    [`${R}/contents/na%C3%AFve.md`],
    [`${R}/contents/100%25.md`],
    [`${R}/labels/type:bug`],
    [`${R}/labels/good%20first%20issue`],
    [`${R}/branches/feature/login`],
    [`${R}/git/ref/heads/release/v2`],
    [`${R}/releases/tags/v1.2.3`],
    [`${R}/compare/main...feature/login`],
    [`${R}/compare/main..feature`],
    [`${R}/compare/octocat:main...monalisa:feature`],
    [`${R}/compare/v1.0.0...v1.1.0`],
    [`${R}/branches/feature%2Flogin/protection`],
    [`${R}/branches/feature%2flogin/protection/restrictions/users`],
    [`${R}/rules/branches/release%2Fv2`],
    [`${R}/branches/caf%C3%A9%C2%A0x/protection`],
    [`${R}/contents/a%0Ab.txt`],
    ['/users/octocat'],
    ['/gitignore/templates/C++'],
  ])('%s', (path) => {
    expect(validatePath(path)).toEqual({ ok: true });
  });
});

describe('validatePath rejects with the rule broken', () => {
  it.each<[string, PathRule]>([
    // SPEC.md rule 2
    ['/repos/a/b/contents/https://evil.example', 'scheme'],
    ['/repos/a/b\\..\\c', 'backslash'],
    ['/repos/a/b?access_token=x', 'query_or_fragment'],
    ['/repos/a/b#frag', 'query_or_fragment'],
    [`${R}/contents/../secrets`, 'dot_dot'],
    [`${R}/contents/a/..`, 'dot_dot'],
    [`${R}/contents/a..b`, 'dot_dot'],
    [`${R}/contents/./a`, 'dot_segment'],
    [`${R}/contents/.`, 'dot_segment'],
    [`${R}/contents/%2e%2e/x`, 'encoded_dot'],
    [`${R}/contents/%2E%2E/x`, 'encoded_dot'],
    [`${R}/contents/.%2e/x`, 'encoded_dot'],
    [`${R}/contents/a%5cb`, 'encoded_backslash'],
    [`${R}/contents/a%5Cb`, 'encoded_backslash'],
    [`${R}/contents/a\tb`, 'control_character'],
    [`${R}/contents/a\nb`, 'control_character'],
    [`${R}/contents/a\rb`, 'control_character'],
    // issue 3: what could leave the host or change meaning at an intermediary
    ['', 'not_absolute'],
    ['repos/a/b', 'not_absolute'],
    ['@evil.example/x', 'not_absolute'],
    ['//evil.example/x', 'double_slash'],
    ['/repos//a', 'double_slash'],
    ['/repos/a/b/', 'empty_segment'],
    [`${R}/contents/a\u0000b`, 'control_character'],
    [`${R}/contents/a\u007fb`, 'control_character'],
    [`${R}/contents/a%00b`, 'encoded_nul'],
    [`${R}/contents/%252e%252e/x`, 'double_encoding'],
    [`${R}/contents/a%252fb`, 'double_encoding'],
    [`${R}/contents/a%255cb`, 'double_encoding'],
    [`${R}/contents/a%2500b`, 'double_encoding'],
    [`${R}/contents/a%25252e`, 'double_encoding'],
    [`${R}/contents/a%2`, 'invalid_percent_encoding'],
    [`${R}/contents/a%zz`, 'invalid_percent_encoding'],
    [`${R}/contents/a%`, 'invalid_percent_encoding'],
    [`${R}/contents/a%C3`, 'invalid_utf8'],
    [`${R}/contents/%C0%AE%C0%AE/x`, 'invalid_utf8'],
    [`${R}/contents/%ED%A0%80`, 'invalid_utf8'],
    [`${R}/contents/%FF`, 'invalid_utf8'],
    [`${R}/contents/%EF%BC%8E%EF%BC%8E/x`, 'unicode_lookalike'],
    [`${R}/contents/a%EF%BC%8Fb`, 'unicode_lookalike'],
    [`${R}/contents/a b`, 'invalid_character'],
    [`${R}/contents/naïve.md`, 'invalid_character'],
    [`${R}/contents/{x}`, 'invalid_character'],
    [`${R}/contents/a"b`, 'invalid_character'],
    ['/' + 'a'.repeat(PATH_MAX_LENGTH), 'too_long'],
    // ruling (a): '..' only as BASE...HEAD / BASE..HEAD inside {basehead}
    [`${R}/compare/main....feature`, 'dot_dot'],
    [`${R}/compare/...feature`, 'dot_dot'],
    [`${R}/compare/main...`, 'dot_dot'],
    [`${R}/compare/main...x...y`, 'dot_dot'],
    [`${R}/compare/main/..feature`, 'dot_dot'],
    [`${R}/compare/main../feature`, 'dot_dot'],
    [`${R}/compare/main/../feature`, 'dot_dot'],
    ['/repos/octocat/a..b/compare/main...feature', 'dot_dot'],
    [`${R}/dependency-graph/compare/main...feature`, 'dot_dot'],
    [`${R}/contents/main...feature`, 'dot_dot'],
    // ruling (b): %2F only in the branch of a native-protection shape
    [`${R}/branches/feature%2Flogin`, 'encoded_slash'],
    [`${R}/contents/a%2Fb`, 'encoded_slash'],
    [`${R}/git/ref/heads%2Fmain`, 'encoded_slash'],
    [`${R}/branches/%2Ffeature/protection`, 'encoded_slash'],
    [`${R}/branches/feature%2F/protection`, 'encoded_slash'],
    [`${R}/branches/a%2F%2Fb/protection`, 'encoded_slash'],
    [`${R}/branches/a%2F.%2Fb/protection`, 'encoded_slash'],
    [`${R}/rules/branches/a%2F..%2Fb`, 'dot_dot'],
    [`${R}/branches/main/protection/admin%2Fx`, 'encoded_slash'],
    ['/repos/octocat%2Fx/Hello-World/branches/main/protection', 'encoded_slash'],
    // SPEC.md rule 10: decoded structural checks of a native-protection branch
    [`${R}/branches/a%2Fb%0A/protection`, 'encoded_control_character'],
    [`${R}/branches/ab%0A/protection`, 'encoded_control_character'],
    [`${R}/branches/main%0D%0AX-Injected:1/protection`, 'encoded_control_character'],
    [`${R}/branches/a%09b/protection/enforce_admins`, 'encoded_control_character'],
    [`${R}/branches/a%1Bb/protection/restrictions/users`, 'encoded_control_character'],
    [`${R}/branches/a%7Fb/protection`, 'encoded_control_character'],
    [`${R}/branches/a%C2%80b/protection`, 'encoded_control_character'],
    [`${R}/branches/a%C2%85b/protection`, 'encoded_control_character'],
    [`${R}/branches/a%c2%9fb/protection`, 'encoded_control_character'],
    [
      `${R}/branches/a%2Fb/c%0a/protection/required_status_checks/contexts`,
      'encoded_control_character',
    ],
    [`${R}/rules/branches/release%2Fv2%0A`, 'encoded_control_character'],
    [`${R}/rules/branches/a%0Db`, 'encoded_control_character'],
    // An escaped TAB, LF or CR that a URL parser would strip, leaving `//`, an empty or a dot
    // segment (found by the property below: `/%09/octocat` decodes to `//octocat`).
    ['/%09/octocat', 'encoded_control_character'],
    ['/%0A%0d/octocat/x', 'encoded_control_character'],
    [`${R}/contents/.%09./secret`, 'encoded_control_character'],
    [`${R}/contents/.%09/x`, 'encoded_control_character'],
    [`${R}/contents/a/%09`, 'encoded_control_character'],
  ])('%j → %s', (path, rule) => {
    expect(validatePath(path)).toEqual({ ok: false, code: 'invalid_path', rule });
  });

  it('refuses every decoded control character in a native-protection branch, and only there', () => {
    const control = fc.oneof(
      fc.integer({ min: 0x01, max: 0x1f }),
      fc.constant(0x7f),
      fc.integer({ min: 0x80, max: 0x9f }),
    );
    const shape = fc.constantFrom(
      (branch: string) => `${R}/branches/${branch}/protection`,
      (branch: string) => `${R}/branches/${branch}/protection/restrictions/apps`,
      (branch: string) => `${R}/rules/branches/${branch}`,
    );
    fc.assert(
      fc.property(control, shape, fc.boolean(), (code, pathOf, withSlash) => {
        const escaped = encodeURIComponent(String.fromCharCode(code));
        const branch = `${withSlash ? 'feature%2F' : ''}a${escaped}b`;
        expect(validatePath(pathOf(branch))).toEqual({
          ok: false,
          code: 'invalid_path',
          rule: 'encoded_control_character',
        });
        // Elsewhere such an escape stays encoded on the wire (SPEC.md: %09 stays %09).
        expect(validatePath(`${R}/contents/a${escaped}b`)).toEqual({ ok: true });
      }),
    );
  });

  it('never echoes the path', () => {
    const result = validatePath('/repos/a/b?access_token=ghp_secret');
    expect(JSON.stringify(result)).not.toContain('ghp_secret');
  });
});

// --- properties ---------------------------------------------------------------------------

const BASE = 'https://api.github.com';

/** One round of percent-decoding, byte-wise and tolerant: what a sloppy intermediary does. */
function decodeLoosely(text: string): string {
  const bytes: number[] = [];
  for (let index = 0; index < text.length; index += 1) {
    const escape = /^%[0-9A-Fa-f]{2}/.exec(text.slice(index));
    if (escape !== null) {
      bytes.push(Number.parseInt(escape[0].slice(1), 16));
      index += 2;
    } else {
      bytes.push(...new TextEncoder().encode(text.charAt(index)));
    }
  }
  return new TextDecoder().decode(new Uint8Array(bytes));
}

function isTraversal(decoded: string): boolean {
  const forms = [decoded, decoded.normalize('NFKC')];
  return forms.some(
    (form) =>
      form.includes('\\') ||
      form.includes('\u0000') ||
      form
        .split('/')
        .slice(1)
        .some((segment) => segment === '.' || segment === '..'),
  );
}

function leavesHost(candidate: string): boolean {
  try {
    const joined = new URL(candidate, BASE);
    const concatenated = new URL(BASE + candidate);
    return joined.host !== 'api.github.com' || concatenated.host !== 'api.github.com';
  } catch {
    return false; // not a URL at all: it cannot reach another host either
  }
}

const pieces = fc.constantFrom(
  '/',
  '/',
  '/',
  '.',
  '..',
  '...',
  '%',
  '%2e',
  '%2E',
  '%2f',
  '%2F',
  '%5c',
  '%5C',
  '%25',
  '%00',
  '%09',
  '%0a',
  '2e',
  '2f',
  '5c',
  'e',
  'repos',
  'octocat',
  'Hello-World',
  'compare',
  'branches',
  'protection',
  'rules',
  'contents',
  '@',
  ':',
  '\\',
  '?',
  '#',
  'evil.example',
  'main',
  '%C0%AE',
  '%EF%BC%8E',
  '%EF%BC%8F',
  '%E2%80%AE',
  'a',
  '\t',
  ' ',
  '//',
  'http:',
  '%40',
  '%3A',
);
const pathLike = fc.oneof(
  fc.array(pieces, { maxLength: 24 }).map((parts) => parts.join('')),
  fc
    .array(pieces, { maxLength: 24 })
    .map((parts) => `/repos/octocat/Hello-World/${parts.join('')}`),
  fc.string({ maxLength: 40 }),
  fc.string({ maxLength: 40, unit: 'binary' }),
);

describe('validatePath properties', () => {
  it('no accepted path decodes, under any number of decodings, to a traversal or another host', () => {
    fc.assert(
      fc.property(pathLike, (path) => {
        if (!validatePath(path).ok) return;
        let current = path;
        for (let round = 0; round < 4; round += 1) {
          expect(isTraversal(current)).toBe(false);
          expect(leavesHost(current)).toBe(false);
          current = decodeLoosely(current);
        }
      }),
      { numRuns: 5000 },
    );
  });

  it('an accepted path is requested as given: joining it to the API host changes nothing', () => {
    fc.assert(
      fc.property(pathLike, (path) => {
        if (!validatePath(path).ok) return;
        expect(new URL(path, BASE).pathname).toBe(path);
      }),
      { numRuns: 2000 },
    );
  });

  it('a path of unreserved segments not starting with a dot (the fast path) joins unchanged', () => {
    const segment = fc
      .tuple(
        fc.constantFrom('a', 'b', 'z', 'A', 'Z', '0', '9', '_', '~', '-'),
        fc.string({
          unit: fc.constantFrom('a', 'z', 'A', 'Z', '0', '9', '.', '_', '~', '-'),
          maxLength: 12,
        }),
      )
      .map(([first, rest]) => first + rest);
    fc.assert(
      fc.property(fc.array(segment, { minLength: 1, maxLength: 8 }), (segments) => {
        const path = `/${segments.join('/')}`;
        const joined = new URL(path, BASE);
        expect(joined.pathname).toBe(path);
        expect(joined.origin).toBe(new URL(BASE).origin);
        // Such a path is valid, unless it holds the '..' the compare rule alone allows.
        const verdict = validatePath(path);
        expect(verdict.ok ? 'ok' : verdict.rule).toBe(path.includes('..') ? 'dot_dot' : 'ok');
      }),
      { numRuns: 3000 },
    );
  });

  it('is total: every string gets a verdict, never an exception', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 200, unit: 'grapheme' }), (path) => {
        const result = validatePath(path);
        expect(typeof result.ok).toBe('boolean');
      }),
    );
  });
});
