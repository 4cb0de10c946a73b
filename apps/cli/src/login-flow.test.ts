import { describe, expect, it } from 'vitest';
import { CliError } from './cli-error.js';
import { checkLoginUrl } from './login-flow.js';
import { createTerminalStyle } from './terminal-style.js';

describe('checkLoginUrl (client rule 1)', () => {
  it.each([
    ['https://relay.example.com', {}, 'https://relay.example.com/'],
    ['relay.example.com', {}, 'https://relay.example.com/'],
    ['http://127.0.0.1:8787', {}, 'http://127.0.0.1:8787/'],
    ['http://localhost:8787', {}, 'http://localhost:8787/'],
    ['http://[::1]:8787', {}, 'http://[::1]:8787/'],
    ['http://relay.internal', { RELAY_ALLOW_INSECURE_LOGIN: '1' }, 'http://relay.internal/'],
  ])('accepts %s', (raw, env, href) => {
    expect(checkLoginUrl(raw, env).href).toBe(href);
  });

  it.each([
    ['http://relay.example.com', {}, 'insecure_url'],
    ['http://relay.example.com', { RELAY_ALLOW_INSECURE_LOGIN: 'yes' }, 'insecure_url'],
    ['http://127.0.0.1.evil.com', {}, 'insecure_url'],
    ['ftp://relay.example.com', {}, 'insecure_url'],
    ['https://user:pw@relay.example.com', {}, 'usage_error'],
    ['https://relay.example.com/?x=1', {}, 'usage_error'],
    ['https://relay.example.com/?', {}, 'usage_error'],
    ['https://relay.example.com/#', {}, 'usage_error'],
    ['https://relay.example.com/#top', {}, 'usage_error'],
  ])('refuses %s', (raw, env, code) => {
    expect(() => checkLoginUrl(raw, env)).toThrow(CliError);
    try {
      checkLoginUrl(raw, env);
    } catch (error) {
      expect((error as CliError).code).toBe(code);
      expect((error as CliError).message).not.toContain('pw');
    }
  });
});

describe('createTerminalStyle (NO_COLOR)', () => {
  it.each([
    [{}, true, true],
    [{}, false, false],
    [{ NO_COLOR: '1' }, true, false],
    [{ NO_COLOR: '' }, true, true],
    [{ TERM: 'dumb' }, true, false],
  ])('%j on a terminal=%s → colour %s', (env, tty, color) => {
    const style = createTerminalStyle(env, tty);
    expect(style.color).toBe(color);
    expect(style.error('x\n') === 'x\n').toBe(!color);
  });
});
