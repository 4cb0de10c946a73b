/**
 * `gh gist view` (cli/cli v2.60.0 pkg/cmd/gist/view, pkg/cmd/gist/shared): the gist id of a
 * selector and the `--files` listing. File contents are not rendered here: gh decides
 * whether a file is binary with the mimetype library's signature tree, which is not ported.
 */
import { compareBytes } from './go-json-encoder.js';

/** Why a gist selector is not served. */
export type GistSelectorRefusal = 'not_modelled';

/** A current (hexadecimal) or old (decimal) gist id: route gist_view's parameter. */
const GIST_ID = /^[0-9a-f]+$/;

/**
 * The gist id gh reads from `gh gist view <id | url>`: the argument itself, or for one with a
 * `/` (`GistIDFromURL`) the URL path's second segment (`/owner/ID/…`), else its first
 * (`/ID`). `undefined` where gh's URL parsing is not reproduced exactly (percent-escapes,
 * anything but an http(s) URL), for gh's own errors (no path, an empty id) and for an id the
 * relay's route does not take: gh runs.
 *
 * @example
 * ```ts
 * parseGistSelector('https://gist.github.com/octo/5b0e0062eb8e9654adad7bb1d81cc75f'); // '5b0e…'
 * ```
 */
export function parseGistSelector(selector: string): string | undefined {
  let id = selector;
  if (selector.includes('/')) {
    const url = /^https?:\/\/[A-Za-z0-9.-]+(?::[0-9]+)?(\/[^?#%\\]*)(?:\?[^#]*)?(?:#.*)?$/.exec(
      selector,
    );
    const path = url?.[1];
    if (path === undefined) return undefined;
    const split = path.split('/');
    id = (split.length > 2 ? split[2] : split[1]) ?? '';
  }
  return GIST_ID.test(id) ? id : undefined;
}

/**
 * Whether Go's `strings.ToLower` of a file name is JavaScript's `toLowerCase`: no control
 * character (C0, DEL, C1) and no lone surrogate (Go reads one as U+FFFD), and every non-ASCII
 * character one that JavaScript's lowering leaves as it is. Such a character is no capital in
 * Go's tables either (Go maps one code point to one by UnicodeData's simple mapping, which
 * JavaScript's full mapping only extends for capitals; a case pair, once in Unicode, stays in
 * every later version, so a character newer than Go's tables is no capital there when it is
 * none here). A non-ASCII capital (`Ü`, `İ`, a final `Σ`) is left to gh.
 */
function lowersAlike(name: string): boolean {
  for (const char of name) {
    const code = char.codePointAt(0) ?? 0;
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return false;
    if (code >= 0xd800 && code <= 0xdfff) return false;
    if (code > 0x7f && char.toLowerCase() !== char) return false;
  }
  return true;
}

/**
 * The file names in gh's order: `sort.Slice` comparing `strings.ToLower` of the names (Go
 * compares strings by their UTF-8 bytes). `undefined` for a name whose lowering is not proved
 * ({@link lowersAlike}) or two names equal but for case (Go's map order then decides gh's order,
 * as the sort leaves equal keys where they are).
 */
export function sortGistFileNames(names: readonly string[]): string[] | undefined {
  if (!names.every(lowersAlike)) return undefined;
  const keyed = names.map((name) => ({ name, key: name.toLowerCase() }));
  if (new Set(keyed.map((entry) => entry.key)).size !== keyed.length) return undefined;
  keyed.sort((a, b) => compareBytes(a.key, b.key));
  return keyed.map((entry) => entry.name);
}

/**
 * `gh gist view --files` output: the file names in gh's order ({@link sortGistFileNames}), one a
 * line; `undefined` where that order is not proved.
 */
export function renderGistFileNames(names: readonly string[]): string | undefined {
  return sortGistFileNames(names)
    ?.map((name) => `${name}\n`)
    .join('');
}

/** What gh's `shared.IsBinaryContents` decides for a file, as far as this module proves it. */
export type GistContentKind = 'text' | 'binary' | 'unproved';

/** mimetype v1.4.6's read limit: detection sees the first 3072 bytes. */
const MIME_READ_LIMIT = 3072;

/**
 * The signatures of mimetype v1.4.6's non-text detectors (its root's children before `text`)
 * that bytes of valid UTF-8 without binary bytes can match, as prefixes (a detector needing more
 * than its prefix is over-approximated by the prefix). The others need a NUL or another binary
 * byte, or a byte valid UTF-8 never has.
 */
const TEXT_LIKE_SIGNATURES: readonly (readonly [offset: number, signature: string])[] = [
  ...[
    'SIMPLE  =', // fits
    'xar!',
    'BZh',
    '!<arch>',
    'LZIP',
    'drpm',
    '070707',
    '070701',
    '070702', // cpio
    'Cr24', // crx
    'MThd', // midi
    'MPCK', // musepack
    '.snd', // au
    '#!AMR',
    'Creative Voice File',
    '#EXTM3U',
    'ID3', // mp3
    'RIFF', // wav, qcp, webp, avi
    'FORM', // aiff
    'MZ', // exe
    '\x7fELF',
    'CWS',
    'FWS',
    'ZWS', // swf
    'd8:announce', // torrent
    'PAR1', // parquet
    'TZif',
    '%PDF-',
    '\n%PDF-',
    '\ufeff%PDF-',
    '%FDF',
    'ITOLITLS', // lit
    'AT&TFORM', // djvu
    '-----BEGIN PKCS7', // p7s
    'wOFF',
    'wOF2',
    'GIF87a',
    'GIF89a',
    'BM', // bmp
    '%!PS-Adobe-',
    '8BPS', // psd
    'icns',
    'gimp xcf',
    '#?RADIANCE\n', // hdr
    '/* XPM */',
    'AC', // dwg
    '.RMF', // rmvb
  ].map((signature) => [0, signature] as const),
  [4, 'Standard ACE DB'],
  [4, 'Standard Jet DB'],
  [4, 'jP  '], // jpeg 2000
  [4, 'jP2 '],
  [20, 'GPAT'],
  [20, 'GIMP'],
  [60, 'BOOKMOBI'],
  [128, 'DICM'],
];

/** mimetype's `Text`: a UTF-8 BOM, or no binary byte (WHATWG's binary data bytes). */
function isMimeText(bytes: Buffer): boolean {
  if (bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf) return true;
  return !bytes.some(
    (b) => b <= 0x08 || b === 0x0b || (b >= 0x0e && b <= 0x1a) || (b >= 0x1c && b <= 0x1f),
  );
}

/** A tar header's checksum field that parses as octal (mimetype then compares checksums). */
function mayBeTarHeader(bytes: Buffer): boolean {
  if (bytes.length < 512) return false;
  const field = bytes
    .subarray(148, 156)
    .toString('latin1')
    .replace(/^[ \0]+|[ \0]+$/g, '');
  return /^[0-7]/.test(field);
}

/**
 * gh's `shared.IsBinaryContents` (mimetype v1.4.6 `Detect` of the first 3072 bytes: binary
 * unless the type is `text/plain` or below it), proved only where it is simple: `binary` when a
 * binary byte is there and no UTF-8 BOM (only mimetype's `Text` leads to a text type),
 * `text` when no binary byte and none of the text-like signatures of the non-text detectors
 * (nor a tar header) is there, `unproved` otherwise.
 */
export function classifyGistContent(content: string): GistContentKind {
  const bytes = Buffer.from(content, 'utf8').subarray(0, MIME_READ_LIMIT);
  // Only `Text` leads to text/plain: without it, any other detector or none is binary.
  if (!isMimeText(bytes)) return 'binary';
  const maybeSigned =
    mayBeTarHeader(bytes) ||
    TEXT_LIKE_SIGNATURES.some(([offset, signature]) => {
      const sig = Buffer.from(signature, 'utf8');
      return bytes.length > offset && bytes.subarray(offset, offset + sig.length).equals(sig);
    });
  return maybeSigned ? 'unproved' : 'text';
}

/** One file of a decoded gist: gh's `GistFile` (its content; `null` file values run gh). */
export interface GoGistFile {
  readonly content: string;
}

/** A decoded gist: gh's `shared.Gist` as `gist view` uses it. */
export interface GoGist {
  readonly description: string;
  /** By file name, in the answer's order. */
  readonly files: ReadonlyMap<string, GoGistFile>;
}

/** gh's bytes for a gist view. */
export interface GistViewOutput {
  readonly stdout: string;
  readonly stderr: string;
  readonly code: number;
}

/**
 * `gh gist view` without a terminal (`--raw` is implied): with `--filename`, that file alone
 * (gh's `gist has no such file: "x"` when missing); else the description and a blank line (when
 * not empty), then every file sorted case-insensitively, each preceded by its name and a blank
 * line when there are several, separated by blank lines; contents are printed as they are, a
 * newline added when missing. A binary file is `(skipping rendering binary content)`, or gh's
 * `error: file is binary` (exit 1) when it is the only file or the `--filename` one.
 * `undefined` where gh's bytes are not proved (see {@link classifyGistContent},
 * {@link renderGistFileNames}) or the missing file name is not printable ASCII.
 */
export function renderGistView(
  gist: GoGist,
  filename: string | undefined,
): GistViewOutput | undefined {
  let stdout = '';
  const render = (file: GoGistFile): GistViewOutput | 'ok' | undefined => {
    const kind = classifyGistContent(file.content);
    if (kind === 'unproved') return undefined;
    if (kind === 'binary') {
      if (gist.files.size === 1 || filename !== undefined) {
        return { stdout, stderr: 'error: file is binary\n', code: 1 };
      }
      stdout += '(skipping rendering binary content)\n';
      return 'ok';
    }
    stdout += file.content.endsWith('\n') ? file.content : `${file.content}\n`;
    return 'ok';
  };
  if (filename !== undefined) {
    const file = gist.files.get(filename);
    if (file === undefined) {
      if (!/^[\x20-\x7e]*$/.test(filename)) return undefined;
      return {
        stdout: '',
        stderr: `gist has no such file: ${JSON.stringify(filename)}\n`,
        code: 1,
      };
    }
    const done = render(file);
    return done === 'ok' ? { stdout, stderr: '', code: 0 } : done;
  }
  if (gist.description !== '') stdout += `${gist.description}\n\n`;
  const keys = [...gist.files.keys()];
  const names = keys.length === 1 ? keys : sortGistFileNames(keys);
  if (names === undefined) return undefined;
  const showNames = names.length > 1;
  for (const [index, name] of names.entries()) {
    if (showNames) stdout += `${name}\n\n`;
    const file = gist.files.get(name);
    if (file === undefined) return undefined;
    const done = render(file);
    if (done !== 'ok') return done;
    if (index < names.length - 1) stdout += '\n';
  }
  return { stdout, stderr: '', code: 0 };
}
