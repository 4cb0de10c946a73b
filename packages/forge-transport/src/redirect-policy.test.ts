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
