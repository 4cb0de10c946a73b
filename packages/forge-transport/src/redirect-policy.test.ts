import { describe, expect, it } from 'vitest';
import { parseForgeHosts } from './host-allowlist.js';
import { MAX_PUBLIC_REDIRECTS, decideRedirect } from './redirect-policy.js';
import type { ForgeTargetKind, RedirectFlow } from './redirect-policy.js';

const parsed = parseForgeHosts({ logHosts: ['actions.githubusercontent.com', '127.0.0.1'] });
if (!parsed.ok) throw new Error('fixture hosts');
const hosts = parsed.value;
const API = new URL('https://api.github.com/repos/o/r/actions/jobs/1/logs');
const WEB = new URL('https://github.com/o/r/pull/1.diff');

function decide(
  from: ForgeTargetKind,
  flow: RedirectFlow,
  location: string | undefined,
  followed = 0,
) {
  const fromUrl = from === 'api' ? API : WEB;
  const result = decideRedirect({ hosts, flow, from, fromUrl, followed, location });
  return result.ok ? `${result.value.kind} ${result.value.url.href}` : result.error;
}

describe('decideRedirect', () => {
  it.each([
    // The API host: only the job-log flow, once, to a log host.
    ['api', 'default', 'https://pipelines.actions.githubusercontent.com/log?sig=1', 'denied'],
    ['api', 'default', 'https://api.github.com/repositories/1', 'denied'],
    [
      'api',
      'job_log',
      'https://pipelines.actions.githubusercontent.com/log?sig=1',
      'log https://pipelines.actions.githubusercontent.com/log?sig=1',
    ],
    [
      'api',
      'job_log',
      'https://PIPELINES.Actions.GitHubUserContent.com./log',
      'log https://pipelines.actions.githubusercontent.com/log',
    ],
    [
      'api',
      'job_log',
      'https://actions.githubusercontent.com/log#frag',
      'log https://actions.githubusercontent.com/log',
    ],
    ['api', 'job_log', 'http://2130706433:9/log', 'log http://127.0.0.1:9/log'],
    ['api', 'job_log', 'http://0x7f.0.0.1:9/log', 'log http://127.0.0.1:9/log'],
    ['api', 'job_log', 'http://localhost:9/log', 'denied'],
    ['api', 'job_log', 'http://pipelines.actions.githubusercontent.com/log', 'denied'],
    ['api', 'job_log', 'https://user:pw@pipelines.actions.githubusercontent.com/log', 'denied'],
    [
      'api',
      'job_log',
      'https://pipelines.actions.githubusercontent.com@evil.example/log',
      'denied',
    ],
    ['api', 'job_log', 'https://evilactions.githubusercontent.com/log', 'denied'],
    ['api', 'job_log', 'https://actions.githubusercontent.com.evil.example/log', 'denied'],
    ['api', 'job_log', 'https://api.github.com/other', 'denied'],
    ['api', 'job_log', 'https://pipelines.actions.githubusercontent.com:8443/log', 'denied'],
    ['api', 'job_log', '/relative', 'denied'],
    ['api', 'job_log', '', 'denied'],
    ['api', 'job_log', undefined, 'denied'],
    ['api', 'job_log', 'https://\u0000x/', 'denied'],
    // A log host never redirects.
    ['log', 'job_log', 'https://actions.githubusercontent.com/again', 'denied'],
    // Public hosts redirect among themselves.
    [
      'web',
      'default',
      'https://patch-diff.githubusercontent.com/raw/o/r/pull/1.diff',
      'patch https://patch-diff.githubusercontent.com/raw/o/r/pull/1.diff',
    ],
    [
      'web',
      'default',
      'https://raw.githubusercontent.com/o/r/HEAD/x',
      'raw https://raw.githubusercontent.com/o/r/HEAD/x',
    ],
    ['web', 'default', '/o/r/pull/2.diff', 'web https://github.com/o/r/pull/2.diff'],
    ['web', 'default', 'https://GitHub.com./o/r', 'web https://github.com/o/r'],
    ['web', 'default', 'https://github.com:8443/o/r', 'denied'],
    ['web', 'default', 'http://github.com/o/r', 'denied'],
    ['web', 'default', 'https://api.github.com/repos/o/r', 'denied'],
    ['web', 'default', 'https://evil.example/', 'denied'],
    ['web', 'job_log', 'https://pipelines.actions.githubusercontent.com/log', 'denied'],
  ] as const)('%s (%s) → %j gives %s', (from, flow, location, expected) => {
    expect(decide(from, flow, location)).toBe(expected);
  });

  it('follows only one log redirect', () => {
    expect(decide('api', 'job_log', 'https://actions.githubusercontent.com/log', 1)).toBe('denied');
  });

  it(`stops public redirects after ${MAX_PUBLIC_REDIRECTS}`, () => {
    const location = 'https://github.com/o/r';
    expect(decide('web', 'default', location, MAX_PUBLIC_REDIRECTS - 1)).toBe(`web ${location}`);
    expect(decide('web', 'default', location, MAX_PUBLIC_REDIRECTS)).toBe('denied');
  });
});

describe('decideRedirect: job-log download targets', () => {
  function decideLog(logHosts: readonly string[], location: string): string {
    const config = parseForgeHosts({ logHosts });
    if (!config.ok) throw new Error('fixture hosts');
    const result = decideRedirect({
      hosts: config.value,
      flow: 'job_log',
      from: 'api',
      fromUrl: API,
      followed: 0,
      location,
    });
    return result.ok ? `${result.value.kind} ${result.value.url.href}` : result.error;
  }
  const GITHUB = ['actions.githubusercontent.com', 'blob.core.windows.net'];
  const GITHUB_AND_LOOPBACK = [...GITHUB, '127.0.0.1'];

  it.each([
    // https on the default port, exact host or dot-suffix: followed.
    [GITHUB, 'https://blob.core.windows.net/l', 'log https://blob.core.windows.net/l'],
    [
      GITHUB,
      'https://a.blob.core.windows.net/l?sig=1',
      'log https://a.blob.core.windows.net/l?sig=1',
    ],
    [GITHUB, 'https://a.blob.core.windows.net:443/l', 'log https://a.blob.core.windows.net/l'],
    [GITHUB, '//a.blob.core.windows.net/l', 'log https://a.blob.core.windows.net/l'],
    // Uppercase and one trailing dot are canonicalised.
    [GITHUB, 'https://A.Blob.Core.WINDOWS.net/l', 'log https://a.blob.core.windows.net/l'],
    [GITHUB, 'https://a.blob.core.windows.net./l', 'log https://a.blob.core.windows.net/l'],
    [GITHUB, 'https://a.blob.core.windows.net../l', 'denied'],
    // Scheme: https only.
    [GITHUB, 'http://a.blob.core.windows.net/l', 'denied'],
    [GITHUB, 'http://a.blob.core.windows.net:443/l', 'denied'],
    [GITHUB, 'ftp://a.blob.core.windows.net/l', 'denied'],
    [GITHUB, 'wss://a.blob.core.windows.net/l', 'denied'],
    // Port: the default only.
    [GITHUB, 'https://a.blob.core.windows.net:8443/l', 'denied'],
    [GITHUB, 'https://a.blob.core.windows.net:80/l', 'denied'],
    [GITHUB, 'https://pipelines.actions.githubusercontent.com:444/l', 'denied'],
    // Userinfo.
    [GITHUB, 'https://u:p@a.blob.core.windows.net/l', 'denied'],
    [GITHUB, 'https://u@a.blob.core.windows.net/l', 'denied'],
    [GITHUB, 'https://a.blob.core.windows.net@evil.example/l', 'denied'],
    // Suffix tricks.
    [GITHUB, 'https://evil-blob.core.windows.net.attacker.com/l', 'denied'],
    [GITHUB, 'https://a.blob.core.windows.net%2eattacker.com/l', 'denied'],
    [GITHUB, 'https://attackerblob.core.windows.net/l', 'denied'],
    [GITHUB, 'https://core.windows.net/l', 'denied'],
    [GITHUB, 'https://blob.core.windows.net.attacker.com/l', 'denied'],
    // IP literals are not log hosts unless configured.
    [GITHUB, 'https://20.60.1.1/l', 'denied'],
    [GITHUB, 'https://127.0.0.1/l', 'denied'],
    [GITHUB, 'http://127.0.0.1:9/l', 'denied'],
    [GITHUB, 'https://2130706433/l', 'denied'],
    [GITHUB, 'https://[::1]/l', 'denied'],
    [GITHUB, 'http://localhost:9/l', 'denied'],
    // A configured loopback log host (tests, demo): http or https on the announced port.
    [GITHUB_AND_LOOPBACK, 'http://127.0.0.1:9/l', 'log http://127.0.0.1:9/l'],
    [GITHUB_AND_LOOPBACK, 'https://127.0.0.1:9/l', 'log https://127.0.0.1:9/l'],
    [GITHUB_AND_LOOPBACK, 'http://2130706433:9/l', 'log http://127.0.0.1:9/l'],
    [GITHUB_AND_LOOPBACK, 'http://127.0.0.2:9/l', 'denied'],
    [GITHUB_AND_LOOPBACK, 'http://localhost:9/l', 'denied'],
    [GITHUB_AND_LOOPBACK, 'http://[::1]:9/l', 'denied'],
    [GITHUB_AND_LOOPBACK, 'http://u:p@127.0.0.1:9/l', 'denied'],
    // ...which does not widen the real hosts.
    [GITHUB_AND_LOOPBACK, 'https://a.blob.core.windows.net:8443/l', 'denied'],
    [GITHUB_AND_LOOPBACK, 'http://a.blob.core.windows.net/l', 'denied'],
    [['localhost'], 'http://localhost:9/l', 'log http://localhost:9/l'],
    [['localhost'], 'https://a.localhost:9/l', 'denied'],
    [['localhost'], 'http://a.localhost/l', 'denied'],
    [['[::1]'], 'http://[::1]:9/l', 'log http://[::1]:9/l'],
  ])('log hosts %j: %s → %s', (logHosts, location, expected) => {
    expect(decideLog(logHosts, location)).toBe(expected);
  });
});
