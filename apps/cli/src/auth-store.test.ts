import { statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createTempDir } from '../test/cli-harness.js';
import { readSavedLogin, resolveConfigDir, writeSavedLogin } from './auth-store.js';
import type { SavedLogin } from './auth-store.js';

const LOGIN: SavedLogin = {
  url: 'https://relay.example.com',
  pool: 'team',
  token: 'rly_x',
  login: 'alice',
  client: 'laptop',
  timestamp: '2030-01-01T00:00:00.000Z',
};
let dir: ReturnType<typeof createTempDir>;
beforeEach(() => {
  dir = createTempDir();
});
afterEach(() => {
  dir.remove();
});

describe('resolveConfigDir (DESIGN.md §3)', () => {
  it.each([
    [{ RELAY_CONFIG_DIR: '/c', XDG_CONFIG_HOME: '/x' }, '/c'],
    [{ XDG_CONFIG_HOME: '/x' }, '/x/relay'],
    [{ RELAY_CONFIG_DIR: ' ', XDG_CONFIG_HOME: '' }, '/home/u/.config/relay'],
    [{}, '/home/u/.config/relay'],
    [{ XDG_CONFIG_HOME: 'relative/config' }, '/home/u/.config/relay'],
    [{ XDG_CONFIG_HOME: './.config' }, '/home/u/.config/relay'],
    [{ XDG_CONFIG_HOME: ' /x ' }, '/x/relay'],
  ])('%j → %s', (env, expected) => {
    expect(resolveConfigDir(env, '/home/u')).toBe(expected);
  });
});

describe('the saved login', () => {
  it('round-trips and is written with mode 0600, also over a more open file', async () => {
    const configDir = join(dir.path, 'nested', 'relay');
    await writeSavedLogin(configDir, LOGIN, () => 1);
    writeFileSync(join(configDir, 'auth.json'), '{}', { mode: 0o644 });
    await writeSavedLogin(configDir, { ...LOGIN, token: 'rly_y' }, () => 2);
    expect(statSync(join(configDir, 'auth.json')).mode & 0o777).toBe(0o600);
    expect(statSync(configDir).mode & 0o777).toBe(0o700);
    expect(await readSavedLogin(configDir)).toEqual({
      ok: true,
      value: { ...LOGIN, token: 'rly_y' },
    });
  });

  it('is absent when there is no file', async () => {
    expect(await readSavedLogin(dir.path)).toEqual({ ok: true, value: undefined });
  });

  it.each([
    ['not JSON', '{'],
    ['a field missing', JSON.stringify({ ...LOGIN, token: undefined })],
    ['an extra field', JSON.stringify({ ...LOGIN, extra: 1 })],
    ['a URL that is not http(s)', JSON.stringify({ ...LOGIN, url: 'file:///etc' })],
  ])('is invalid_config when %s', async (_name, text) => {
    writeFileSync(join(dir.path, 'auth.json'), text);
    expect(await readSavedLogin(dir.path)).toEqual({
      ok: false,
      error: { code: 'invalid_config', cause: 'malformed' },
    });
  });
});
