import { describe, expect, it } from 'vitest';
import { parseGitRemoteConfig } from './git-remote-config.js';

describe('parseGitRemoteConfig', () => {
  it('reads url, pushurl and gh-resolved per remote in first-seen order', () => {
    const text = [
      'remote.origin.url git@github.com:me/widgets.git',
      'remote.my.fork.url https://github.com/me/fork',
      'remote.origin.pushurl git@github.com:me/push.git',
      'remote.upstream.url https://github.com/acme/widgets',
      'remote.upstream.gh-resolved base',
      'remote.origin.url git@github.com:second/url.git',
      'not a config line',
      '',
    ].join('\n');
    expect(parseGitRemoteConfig(text)).toEqual([
      {
        name: 'origin',
        fetchUrl: 'git@github.com:me/widgets.git',
        pushUrl: 'git@github.com:me/push.git',
      },
      { name: 'my.fork', fetchUrl: 'https://github.com/me/fork' },
      { name: 'upstream', fetchUrl: 'https://github.com/acme/widgets', resolved: 'base' },
    ]);
  });

  it('is empty for no output', () => {
    expect(parseGitRemoteConfig('')).toEqual([]);
  });
});
