import { describe, expect, it } from 'vitest';
import { classifyNativeInvocation } from './protected-invocation.js';
import type { ExemptionReason } from './protected-invocation.js';

describe('classifyNativeInvocation (SPEC.md client rule 15 exemptions)', () => {
  it.each<[string[], ExemptionReason]>([
    [[], 'empty'],
    [['--help'], 'help'],
    [['-h'], 'help'],
    [['help'], 'help'],
    [['--version'], 'version'],
    [['version'], 'version'],
    [['help', 'environment'], 'topic_help'],
    [['help', 'formatting'], 'topic_help'],
    [['help', 'mintty'], 'topic_help'],
    [['help', 'reference'], 'topic_help'],
    [['help', 'exit-codes'], 'topic_help'],
    [['environment'], 'topic_help'],
    [['exit-codes', '--help'], 'topic_help'],
    [['formatting', '-h'], 'topic_help'],
    [['auth', 'login'], 'auth_bootstrap'],
    [['auth', 'login', '--hostname', 'github.com', '--git-protocol', 'https'], 'auth_bootstrap'],
    [['auth', 'status'], 'auth_bootstrap'],
    [['auth', 'token', '--hostname', 'github.com'], 'auth_bootstrap'],
  ])('%j needs no policy (%s)', (argv, reason) => {
    expect(classifyNativeInvocation(argv)).toEqual({ kind: 'exempt', reason });
  });

  it.each<[string, string[]]>([
    ['a write', ['issue', 'create', '--title', 't', '--body', 'b']],
    ['a read', ['pr', 'view', '1']],
    ['help with a command (not a topic)', ['help', 'pr']],
    ['help of an unknown topic', ['help', 'secrets']],
    ['a topic with more arguments', ['help', 'environment', 'extra']],
    ['a topic after another flag', ['environment', '--version']],
    ['version with arguments', ['version', '--json']],
    ['--version with arguments', ['--version', 'x']],
    ['--help with a value after it', ['--help', 'issue']],
    ['a command help flag', ['issue', 'create', '--help']],
    ['auth logout', ['auth', 'logout']],
    ['auth refresh', ['auth', 'refresh', '--scopes', 'repo']],
    ['auth setup-git', ['auth', 'setup-git']],
    ['auth switch', ['auth', 'switch']],
    ['auth alone', ['auth']],
    ['a flag before auth', ['--repo', 'x', 'auth', 'login']],
    ['an abbreviation-like token', ['auth', 'log']],
    ['a case variant', ['--Version']],
    ['api', ['api', 'user']],
    ['an unknown command', ['frobnicate']],
  ])('%s is protected', (_name, argv) => {
    expect(classifyNativeInvocation(argv)).toEqual({ kind: 'protected' });
  });
});
