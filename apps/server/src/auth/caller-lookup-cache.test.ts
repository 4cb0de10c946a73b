import { ok } from '@relay/protocol';
import { describe, expect, it, vi } from 'vitest';
import type { CallerStore, TokenOwner } from '../storage/caller-store.js';
import {
  createCachingCallerStore,
  isCachingCallerStore,
  withCachedCallerLookups,
} from './caller-lookup-cache.js';

const OWNER: TokenOwner = {
  callerId: 'cal_1',
  clientId: 'cli_1',
  clientName: 'laptop',
  login: 'mona',
  tokenSha256: 'a'.repeat(64),
  expiresAtIso: '2030-01-01T00:00:00.000Z',
  disabled: false,
  lastUsedAtIso: null,
};

function fakeStore() {
  const rows = new Map<string, TokenOwner>([[OWNER.tokenSha256, OWNER]]);
  const granted = new Set<string>(['cal_1\nbench']);
  const store = {
    enroll: vi.fn(() =>
      Promise.resolve(
        ok({ callerId: 'cal_1', clientId: 'cli_1', clientName: 'laptop', disabled: false }),
      ),
    ),
    findTokenOwner: vi.fn((digest: string) => Promise.resolve(rows.get(digest))),
    hasGrant: vi.fn((callerId: string, poolId: string) =>
      Promise.resolve(granted.has(`${callerId}\n${poolId}`)),
    ),
    touchClient: vi.fn(() => Promise.resolve()),
    listClients: vi.fn(() => Promise.resolve([])),
  } satisfies CallerStore;
  return { store, rows, granted };
}

function setup(ttlMs?: number, maxEntries?: number) {
  const clock = { at: 1_000_000 };
  const fake = fakeStore();
  // The database's external change counter (SQLite's data_version).
  const external = { version: 1 };
  const cached = createCachingCallerStore(fake.store, {
    now: () => clock.at,
    externalChangeVersion: () => external.version,
    ...(ttlMs === undefined ? {} : { ttlMs }),
    ...(maxEntries === undefined ? {} : { maxEntries }),
  });
  return { clock, cached, external, ...fake };
}

describe('createCachingCallerStore', () => {
  it('reuses a token owner for 5 s, then reads it again (a revocation takes effect)', async () => {
    const { clock, cached, store, rows } = setup();
    expect(await cached.findTokenOwner(OWNER.tokenSha256)).toEqual(OWNER);
    rows.delete(OWNER.tokenSha256); // revoked in the database
    clock.at += 4_999;
    expect(await cached.findTokenOwner(OWNER.tokenSha256)).toEqual(OWNER);
    expect(store.findTokenOwner).toHaveBeenCalledTimes(1);
    clock.at += 1;
    expect(await cached.findTokenOwner(OWNER.tokenSha256)).toBeUndefined();
    expect(store.findTokenOwner).toHaveBeenCalledTimes(2);
  });

  it('never caches an unknown token, so a new token works at once', async () => {
    const { cached, store, rows } = setup();
    const digest = 'b'.repeat(64);
    expect(await cached.findTokenOwner(digest)).toBeUndefined();
    rows.set(digest, { ...OWNER, tokenSha256: digest });
    expect((await cached.findTokenOwner(digest))?.tokenSha256).toBe(digest);
    expect(store.findTokenOwner).toHaveBeenCalledTimes(2);
  });

  it('reuses a grant for the TTL and never caches a refusal', async () => {
    const { clock, cached, store, granted } = setup(1_000);
    expect(await cached.hasGrant('cal_1', 'bench')).toBe(true);
    granted.delete('cal_1\nbench');
    clock.at += 999;
    expect(await cached.hasGrant('cal_1', 'bench')).toBe(true);
    clock.at += 1;
    expect(await cached.hasGrant('cal_1', 'bench')).toBe(false);
    granted.add('cal_1\nbench');
    expect(await cached.hasGrant('cal_1', 'bench')).toBe(true);
    expect(await cached.hasGrant('cal_1', 'other')).toBe(false);
    expect(await cached.hasGrant('cal_1', 'other')).toBe(false);
    expect(store.hasGrant).toHaveBeenCalledTimes(5);
  });

  it('clears both caches on enroll (a rotated-out token stops at once)', async () => {
    const { cached, store, rows } = setup();
    await cached.findTokenOwner(OWNER.tokenSha256);
    await cached.hasGrant('cal_1', 'bench');
    rows.delete(OWNER.tokenSha256);
    await cached.enroll({} as Parameters<CallerStore['enroll']>[0]);
    expect(store.enroll).toHaveBeenCalledTimes(1);
    expect(await cached.findTokenOwner(OWNER.tokenSha256)).toBeUndefined();
    await cached.hasGrant('cal_1', 'bench');
    expect(store.hasGrant).toHaveBeenCalledTimes(2);
  });

  it('drops every lookup on invalidate (an admin write), so the next request reads again', async () => {
    const { cached, store, rows, granted } = setup();
    await cached.findTokenOwner(OWNER.tokenSha256);
    await cached.hasGrant('cal_1', 'bench');
    rows.set(OWNER.tokenSha256, { ...OWNER, disabled: true });
    granted.delete('cal_1\nbench');
    cached.invalidate();
    expect((await cached.findTokenOwner(OWNER.tokenSha256))?.disabled).toBe(true);
    expect(await cached.hasGrant('cal_1', 'bench')).toBe(false);
    expect(store.findTokenOwner).toHaveBeenCalledTimes(2);
    expect(store.hasGrant).toHaveBeenCalledTimes(2);
  });

  it('drops every lookup once another connection committed, read at most every 50 ms', async () => {
    const { clock, cached, store, rows, external } = setup();
    await cached.findTokenOwner(OWNER.tokenSha256);
    rows.set(OWNER.tokenSha256, { ...OWNER, disabled: true }); // an operator's tool
    external.version++;
    clock.at += 49;
    expect((await cached.findTokenOwner(OWNER.tokenSha256))?.disabled).toBe(false);
    clock.at += 1;
    expect((await cached.findTokenOwner(OWNER.tokenSha256))?.disabled).toBe(true);
    expect(store.findTokenOwner).toHaveBeenCalledTimes(2);
    // Unchanged counter: the lookups are reused again.
    clock.at += 100;
    await cached.findTokenOwner(OWNER.tokenSha256);
    expect(store.findTokenOwner).toHaveBeenCalledTimes(2);
  });

  it('with a change sync (several replicas), sees a commit made before the lookup at once', async () => {
    const fake = fakeStore();
    // A notification that has not arrived: the backend's own counter does not move. The
    // replicas' change sequence, read at each lookup, does.
    const sequence = { committed: 1, synced: 1, syncs: 0 };
    const cached = createCachingCallerStore(fake.store, {
      now: () => 1_000_000,
      externalChangeVersion: () => sequence.synced,
      externalCheckIntervalMs: 0,
      syncExternalChanges: () => {
        sequence.syncs++;
        sequence.synced = sequence.committed;
        return Promise.resolve();
      },
    });
    const { reading } = await cached.findTokenOwnerChecked(OWNER.tokenSha256);
    expect(await cached.hasGrantSince('cal_1', 'bench', reading)).toBe(true);
    expect(sequence.syncs).toBe(1); // one round trip per request
    fake.rows.set(OWNER.tokenSha256, { ...OWNER, disabled: true }); // an operator, on replica A
    sequence.committed++;
    expect((await cached.findTokenOwner(OWNER.tokenSha256))?.disabled).toBe(true);
    fake.granted.delete('cal_1\nbench');
    sequence.committed++;
    expect(await cached.hasGrant('cal_1', 'bench')).toBe(false);
  });

  describe('one external change check per request (findTokenOwnerChecked, hasGrantSince)', () => {
    /** A setup whose counter reads are counted, read at every lookup (as the server runs it). */
    function counted() {
      const fake = fakeStore();
      const external = { version: 1, reads: 0 };
      const cached = createCachingCallerStore(fake.store, {
        now: () => 1_000_000,
        externalChangeVersion: () => {
          external.reads++;
          return external.version;
        },
        externalCheckIntervalMs: 0,
      });
      return { cached, external, ...fake };
    }

    it("reads the counter once for a request's token and grant", async () => {
      const { cached, external, store } = counted();
      await cached.hasGrant('cal_1', 'bench'); // cached by an earlier request
      external.reads = 0;
      const { owner, reading } = await cached.findTokenOwnerChecked(OWNER.tokenSha256);
      expect(owner).toEqual(OWNER);
      expect(await cached.hasGrantSince('cal_1', 'bench', reading)).toBe(true);
      expect(external.reads).toBe(1);
      expect(store.hasGrant).toHaveBeenCalledTimes(1);
    });

    it('a grant removed by another connection is refused once any request saw the counter move', async () => {
      const { cached, external, granted } = counted();
      await cached.hasGrant('cal_1', 'bench');
      const { reading } = await cached.findTokenOwnerChecked(OWNER.tokenSha256);
      granted.delete('cal_1\nbench'); // an operator's tool
      external.version++;
      // Another request looks up its token meanwhile and sees the commit: the caches are cleared.
      await cached.findTokenOwnerChecked(OWNER.tokenSha256);
      expect(await cached.hasGrantSince('cal_1', 'bench', reading)).toBe(false);
    });

    it('a reading older than a clear is not trusted: the counter is read again', async () => {
      const { cached, external, granted } = counted();
      await cached.hasGrant('cal_1', 'bench');
      const { reading } = await cached.findTokenOwnerChecked(OWNER.tokenSha256);
      cached.invalidate(); // an admin write in this process
      external.reads = 0;
      granted.delete('cal_1\nbench');
      expect(await cached.hasGrantSince('cal_1', 'bench', reading)).toBe(false);
      expect(external.reads).toBe(1);
    });

    it('a commit seen by the next token lookup clears the grant before it is reused', async () => {
      const { cached, external, granted } = counted();
      await cached.hasGrant('cal_1', 'bench');
      granted.delete('cal_1\nbench');
      external.version++;
      const { reading } = await cached.findTokenOwnerChecked(OWNER.tokenSha256);
      expect(await cached.hasGrantSince('cal_1', 'bench', reading)).toBe(false);
    });

    it('tells caching stores apart', () => {
      const { store, cached } = counted();
      expect(isCachingCallerStore(cached)).toBe(true);
      expect(isCachingCallerStore(store)).toBe(false);
    });
  });

  it('records a touch in the cached owner, so the touch interval still holds', async () => {
    const { cached, store } = setup();
    await cached.findTokenOwner(OWNER.tokenSha256);
    await cached.touchClient('cli_1', '2026-11-22T05:00:00.000Z');
    expect(store.touchClient).toHaveBeenCalledWith('cli_1', '2026-11-22T05:00:00.000Z');
    expect((await cached.findTokenOwner(OWNER.tokenSha256))?.lastUsedAtIso).toBe(
      '2026-11-22T05:00:00.000Z',
    );
    expect(store.findTokenOwner).toHaveBeenCalledTimes(1);
  });

  it('keeps at most maxEntries owners, dropping the oldest', async () => {
    const { cached, store, rows } = setup(5_000, 2);
    for (const c of ['c', 'd', 'e']) rows.set(c, { ...OWNER, tokenSha256: c });
    await cached.findTokenOwner('c');
    await cached.findTokenOwner('d');
    await cached.findTokenOwner('e');
    store.findTokenOwner.mockClear();
    await cached.findTokenOwner('e');
    await cached.findTokenOwner('d');
    expect(store.findTokenOwner).not.toHaveBeenCalled();
    await cached.findTokenOwner('c');
    expect(store.findTokenOwner).toHaveBeenCalledTimes(1);
  });

  it('wraps the callers of a services object and keeps the rest', async () => {
    const { store } = fakeStore();
    const services = withCachedCallerLookups({ callers: store, other: 1 }, () => 0);
    expect(services.other).toBe(1);
    await services.callers.findTokenOwner(OWNER.tokenSha256);
    await services.callers.findTokenOwner(OWNER.tokenSha256);
    expect(store.findTokenOwner).toHaveBeenCalledTimes(1);
    services.invalidateCallerLookups();
    await services.callers.findTokenOwner(OWNER.tokenSha256);
    expect(store.findTokenOwner).toHaveBeenCalledTimes(2);
  });
});
