import { describe, expect, it } from 'vitest';
import { SESSION_KEY, clearSession, readSession, writeSession } from './session-store.js';

function createStorage() {
  const items = new Map<string, string>();
  return {
    items,
    getItem: (key: string) => items.get(key) ?? null,
    setItem: (key: string, value: string) => void items.set(key, value),
    removeItem: (key: string) => void items.delete(key),
  };
}

describe('session store', () => {
  it('keeps pool and token under one key, and forgets them', () => {
    const storage = createStorage();
    expect(readSession(storage)).toBeUndefined();
    writeSession(storage, { pool: 'team', token: 'rly_secret' });
    expect([...storage.items.keys()]).toEqual([SESSION_KEY]);
    expect(readSession(storage)).toEqual({ pool: 'team', token: 'rly_secret' });
    clearSession(storage);
    expect(storage.items.size).toBe(0);
  });

  it.each([['not json'], ['null'], ['{"pool":"team"}'], ['{"pool":"","token":"x"}']])(
    'drops a malformed entry %s',
    (text) => {
      const storage = createStorage();
      storage.setItem(SESSION_KEY, text);
      expect(readSession(storage)).toBeUndefined();
      expect(storage.items.size).toBe(0);
    },
  );
});
