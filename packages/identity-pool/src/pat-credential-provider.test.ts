import { describe, expect, it } from 'vitest';
import { createPatCredentialProvider } from './pat-credential-provider.js';
import { pat } from './__fixtures__/identities.js';

const identity = pat('reader', [{ owner: 'octo' }]);

describe('pat credentials', () => {
  it('reads the binding named by secret_ref at every request', async () => {
    const reads: string[] = [];
    let value = 'ghp_first';
    const provider = createPatCredentialProvider({
      resolveSecret: (name) => {
        reads.push(name);
        return Promise.resolve(value);
      },
    });
    const first = await provider.resolve(identity);
    value = 'ghp_rotated';
    const second = await provider.resolve(identity);
    expect(reads).toEqual([identity.secretRef, identity.secretRef]);
    expect(first.ok && first.value.reveal()).toBe('ghp_first');
    expect(second.ok && second.value.reveal()).toBe('ghp_rotated');
    expect(second.ok && second.value.kind).toBe('pat');
  });

  it('trims the trailing newline of a secret file', async () => {
    const provider = createPatCredentialProvider({
      resolveSecret: () => Promise.resolve('ghp_x\n'),
    });
    const result = await provider.resolve(identity);
    expect(result.ok && result.value.reveal()).toBe('ghp_x');
  });

  it.each([
    ['a missing binding', () => Promise.resolve(undefined), 'secret_unavailable'],
    [
      'an unreadable binding',
      () => Promise.reject(new Error('EACCES /run/secrets/SECRET_reader')),
      'secret_unavailable',
    ],
    ['an empty binding', () => Promise.resolve('   '), 'secret_invalid'],
    ['a token with inner spaces', () => Promise.resolve('ghp_a b'), 'secret_invalid'],
    ['a token with a control character', () => Promise.resolve('ghp_a\u0000b'), 'secret_invalid'],
    ['a multi-line value', () => Promise.resolve('ghp_a\nghp_b'), 'secret_invalid'],
  ])(
    'fails locally on %s, naming neither binding nor value',
    async (_name, resolveSecret, code) => {
      const result = await createPatCredentialProvider({ resolveSecret }).resolve(identity);
      expect(result).toEqual({ ok: false, error: { code } });
      expect(JSON.stringify(result)).not.toContain(identity.secretRef);
    },
  );
});
