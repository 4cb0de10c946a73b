import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { checkSecretsDir, createSecretReader, toSecretsDirWarning } from './secret-resolver.js';

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});
function secretsDir(mode: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'relay-secrets-'));
  dirs.push(dir);
  writeFileSync(join(dir, 'ACME_PAT'), 'ghp_not_a_real_token\n', { mode: 0o600 });
  chmodSync(dir, mode);
  return dir;
}

describe('toSecretsDirWarning', () => {
  it.each([
    [0o700, undefined],
    [0o711, undefined],
    [0o40700, undefined],
    [0o750, '0750'],
    [0o755, '0755'],
    [0o704, '0704'],
    [0o720, '0720'],
    [0o702, '0702'],
    [0o777, '0777'],
    [0o40755, '0755'],
  ])('mode %o → %s', (mode, expected) => {
    expect(toSecretsDirWarning(mode)?.mode).toBe(expected);
  });
});

describe('checkSecretsDir', () => {
  it.each([
    [0o700, undefined],
    [0o750, { level: 'warn', msg: 'secrets_dir_open_to_others', mode: '0750' }],
    [0o755, { level: 'warn', msg: 'secrets_dir_open_to_others', mode: '0755' }],
  ])('a directory of mode %o → %j', async (mode, expected) => {
    const dir = secretsDir(mode);
    const warning = await checkSecretsDir(dir);
    expect(warning).toEqual(expected);
    // One line, naming no binding and no value.
    const line = JSON.stringify(warning ?? {});
    expect(line).not.toContain('ACME_PAT');
    expect(line).not.toContain('ghp_');
    chmodSync(dir, 0o700);
  });

  it.each([
    ['unset', undefined, {}],
    ['missing', '/nonexistent/relay-secrets', {}],
    ['on win32', '/any', { platform: 'win32', statMode: () => Promise.resolve(0o777) }],
  ] as const)('says nothing when the directory is %s', async (_what, dir, options) => {
    expect(await checkSecretsDir(dir, options)).toBeUndefined();
  });
});

describe('createSecretReader', () => {
  it('reads a binding from the directory, else from RELAY_SECRET_X', async () => {
    const dir = secretsDir(0o700);
    const read = createSecretReader({ secretsDir: dir, env: { RELAY_SECRET_OTHER: ' v ' } });
    expect(await read('ACME_PAT')).toBe('ghp_not_a_real_token');
    expect(await read('OTHER')).toBe('v');
    expect(await read('../etc/passwd')).toBeUndefined();
  });
});
