import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_FORGE_LOG_HOSTS,
  canonicalizeHostname,
  isAllowedLogTarget,
  isLoopbackHostname,
  matchesLogHost,
  parseCanonicalUrl,
  parseForgeHosts,
} from './host-allowlist.js';

describe('parseForgeHosts', () => {
  it('defaults to GitHub hosts', () => {
    const hosts = parseForgeHosts();
    expect(hosts.ok && hosts.value.bases.api).toEqual({
      origin: 'https://api.github.com',
      hostname: 'api.github.com',
      basePath: '',
    });
    expect(hosts.ok && hosts.value.logHosts).toEqual(DEFAULT_FORGE_LOG_HOSTS);
  });

  it.each([
    [
      'https://API.GitHub.com.',
      { origin: 'https://api.github.com', hostname: 'api.github.com', basePath: '' },
    ],
    [
      'https://ghe.example/api/v3/',
      { origin: 'https://ghe.example', hostname: 'ghe.example', basePath: '/api/v3' },
    ],
    [
      'http://127.0.0.1:8080',
      { origin: 'http://127.0.0.1:8080', hostname: '127.0.0.1', basePath: '' },
    ],
    ['http://0x7f.1:9/', { origin: 'http://127.0.0.1:9', hostname: '127.0.0.1', basePath: '' }],
    ['http://localhost:1', { origin: 'http://localhost:1', hostname: 'localhost', basePath: '' }],
    ['http://[::1]:2', { origin: 'http://[::1]:2', hostname: '[::1]', basePath: '' }],
  ])('accepts %s', (apiUrl, expected) => {
    const hosts = parseForgeHosts({ apiUrl });
    expect(hosts.ok && hosts.value.bases.api).toEqual(expected);
  });

  it.each([
    ['not a url', 'invalid_url'],
    ['https://.', 'invalid_url'],
    ['ftp://api.github.com', 'unsupported_scheme'],
    ['http://api.github.com', 'insecure_scheme'],
    ['http://127.0.0.1.nip.io', 'insecure_scheme'],
    ['http://2130706433.example', 'insecure_scheme'],
    ['https://user:pw@api.github.com', 'userinfo_not_allowed'],
    ['https://api.github.com@evil.example', 'userinfo_not_allowed'],
    ['https://api.github.com/?x=1', 'query_or_fragment_not_allowed'],
    ['https://api.github.com/#x', 'query_or_fragment_not_allowed'],
    ['https://api.github.com/?', 'query_or_fragment_not_allowed'],
    ['https:\\\\evil.example', 'invalid_url'],
  ])('refuses %s (%s)', (webUrl, code) => {
    expect(parseForgeHosts({ webUrl })).toEqual({ ok: false, error: { code, setting: 'web' } });
  });

  it.each([
    [['.Blob.Core.Windows.NET.'], ['blob.core.windows.net']],
    [[' logs.example ', 'logs.example'], ['logs.example']],
    [['127.0.0.1'], ['127.0.0.1']],
  ])('canonicalises log hosts %j', (logHosts, expected) => {
    const hosts = parseForgeHosts({ logHosts });
    expect(hosts.ok && hosts.value.logHosts).toEqual(expected);
  });

  it.each([
    ['https://logs.example'],
    ['logs.example/path'],
    ['user@logs.example'],
    ['logs.example:443'],
    [''],
    ['*.logs.example'],
  ])('refuses log host %j', (entry) => {
    expect(parseForgeHosts({ logHosts: [entry] })).toEqual({
      ok: false,
      error: { code: 'invalid_log_host', setting: 'logHosts' },
    });
  });
});

describe('parseCanonicalUrl', () => {
  it.each([
    ['https://LOGS.example./a?b=1', 'https://logs.example/a?b=1'],
    ['http://2130706433:80/x', 'http://127.0.0.1/x'],
    ['http://0177.0.0.1:5/x', 'http://127.0.0.1:5/x'],
    ['http://127.1:5/x', 'http://127.0.0.1:5/x'],
    ['https://xn--nxasmq6b.example/', 'https://xn--nxasmq6b.example/'],
    ['https://@logs.example/', 'https://logs.example/'],
    ['https://βόλος.example/', 'https://xn--nxasmm1c.example/'],
  ])('%s → %s', (input, expected) => {
    const url = parseCanonicalUrl(input);
    expect(url.ok && url.value.href).toBe(expected);
  });

  it('resolves a relative reference against its base', () => {
    const url = parseCanonicalUrl('/next', new URL('https://github.com/a/b'));
    expect(url.ok && url.value.href).toBe('https://github.com/next');
  });

  it.each([
    ['https://a:b@logs.example/', 'userinfo_not_allowed'],
    ['javascript:alert(1)', 'unsupported_scheme'],
    ['http://logs.example/', 'insecure_scheme'],
    ['https://logs.example\t/', 'invalid_url'],
    ['https://logs.example\\@evil/', 'invalid_url'],
  ])('refuses %j (%s)', (input, code) => {
    expect(parseCanonicalUrl(input)).toEqual({ ok: false, error: code });
  });
});

describe('canonicalizeHostname', () => {
  it.each([
    ['api.github.com.', 'api.github.com'],
    ['API.GITHUB.COM', 'api.github.com'],
    ['api.github.com..', undefined],
    ['.', undefined],
    ['', undefined],
  ])('%j → %j', (input, expected) => {
    expect(canonicalizeHostname(input)).toBe(expected);
  });

  it('is idempotent', () => {
    fc.assert(
      fc.property(fc.domain(), fc.boolean(), (domain, trailingDot) => {
        const once = canonicalizeHostname(trailingDot ? `${domain}.` : domain);
        expect(once).toBeDefined();
        expect(canonicalizeHostname(once!)).toBe(once);
      }),
    );
  });
});

describe('isLoopbackHostname', () => {
  it.each([
    ['localhost', true],
    ['127.0.0.1', true],
    ['127.255.0.9', true],
    ['[::1]', true],
    ['localhost.example', false],
    ['127.0.0.1.nip.io', false],
    ['10.0.0.1', false],
    ['[::2]', false],
  ])('%s → %s', (host, expected) => {
    expect(isLoopbackHostname(host)).toBe(expected);
  });
});

describe('matchesLogHost', () => {
  const logHosts = ['actions.githubusercontent.com', 'blob.core.windows.net', '127.0.0.1'];
  it.each([
    ['actions.githubusercontent.com', true],
    ['pipelines.actions.githubusercontent.com', true],
    ['a.b.blob.core.windows.net', true],
    ['127.0.0.1', true],
    ['evilactions.githubusercontent.com', false],
    ['actions.githubusercontent.com.evil.example', false],
    ['githubusercontent.com', false],
    ['1.127.0.0.1', false],
    ['127.0.0.2', false],
    ['api.github.com', false],
  ])('%s → %s', (host, expected) => {
    expect(matchesLogHost(host, logHosts)).toBe(expected);
  });

  it('matches only the suffix itself or a dot-separated subdomain of it', () => {
    fc.assert(
      fc.property(fc.domain(), fc.domain(), (host, suffix) => {
        const matched = matchesLogHost(host, [suffix]);
        expect(matched).toBe(host === suffix || host.endsWith(`.${suffix}`));
      }),
    );
  });
});

describe('isAllowedLogTarget', () => {
  const logHosts = ['blob.core.windows.net', '127.0.0.1'];
  it.each([
    ['https://a.blob.core.windows.net/l', true],
    ['https://a.blob.core.windows.net:443/l', true],
    ['https://A.BLOB.core.windows.net./l', true],
    ['https://a.blob.core.windows.net:8443/l', false],
    ['http://a.blob.core.windows.net/l', false],
    ['https://u:p@a.blob.core.windows.net/l', false],
    ['https://attackerblob.core.windows.net/l', false],
    ['https://a.blob.core.windows.net.attacker.com/l', false],
    ['http://127.0.0.1:9/l', true],
    ['https://127.0.0.1:9/l', true],
    ['http://u@127.0.0.1:9/l', false],
    ['http://localhost:9/l', false],
    ['file://127.0.0.1/l', false],
  ])('%s → %s', (href, expected) => {
    expect(isAllowedLogTarget(new URL(href), logHosts)).toBe(expected);
  });
});
