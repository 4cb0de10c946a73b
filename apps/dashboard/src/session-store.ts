/** The signed-in pool and caller token of this browser tab. */
export interface DashboardSession {
  readonly pool: string;
  readonly token: string;
}

/** The sessionStorage key. */
export const SESSION_KEY = 'relay.dashboard.session';

/** The subset of the Web Storage API used here (sessionStorage; tests pass a fake). */
export interface SessionStorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

/**
 * Reads the session of this tab. The token is kept in sessionStorage only: never
 * localStorage, a cookie or a URL, so it goes when the tab closes.
 */
export function readSession(storage: SessionStorageLike): DashboardSession | undefined {
  const text = storage.getItem(SESSION_KEY);
  if (text === null) return undefined;
  try {
    const value = JSON.parse(text) as Partial<DashboardSession> | null;
    if (typeof value?.pool === 'string' && typeof value.token === 'string') {
      if (value.pool !== '' && value.token !== '') return { pool: value.pool, token: value.token };
    }
  } catch {
    // A malformed entry is dropped below.
  }
  storage.removeItem(SESSION_KEY);
  return undefined;
}

/** Keeps the session for this tab. */
export function writeSession(storage: SessionStorageLike, session: DashboardSession): void {
  storage.setItem(SESSION_KEY, JSON.stringify({ pool: session.pool, token: session.token }));
}

/** Forgets the session (sign out, or a refused token). */
export function clearSession(storage: SessionStorageLike): void {
  storage.removeItem(SESSION_KEY);
}
