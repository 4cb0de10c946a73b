import type { DatabaseLocation } from './database-location.js';
import { openPostgresDatabase, type OpenPostgresOptions } from './postgres-database.js';
import type { RelayDatabase } from './relay-database.js';
import { openSqliteDatabase } from './sqlite-database.js';

/**
 * Opens the relay database where `location` says: the embedded SQLite file (the default
 * deployment) or PostgreSQL (the scale-out path). Both run the same migration history.
 *
 * @param location - from RELAY_DATABASE_URL or RELAY_DATABASE
 * @param options - the clock of seeded rows; PostgreSQL's pool, exclusivity and problem sink
 * @throws DatabaseOpenError (`database_unavailable`)
 */
export function openRelayDatabase(
  location: DatabaseLocation,
  options: OpenPostgresOptions = {},
): Promise<RelayDatabase> {
  if (location.dialect === 'postgres') return openPostgresDatabase(location.url, options);
  return openSqliteDatabase(location.path, options.now === undefined ? {} : { now: options.now });
}
