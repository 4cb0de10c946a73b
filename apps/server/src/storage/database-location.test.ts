import { describe, expect, it } from 'vitest';
import { describeDatabaseLocation, parseDatabaseUrl } from './database-location.js';

describe('parseDatabaseUrl', () => {
  it.each([
    ['sqlite:relay.db', { dialect: 'sqlite', path: 'relay.db' }],
    ['sqlite::memory:', { dialect: 'sqlite', path: ':memory:' }],
    ['sqlite:///var/lib/relay/relay.db', { dialect: 'sqlite', path: '/var/lib/relay/relay.db' }],
    [
      'postgres://root@127.0.0.1:5432/test',
      { dialect: 'postgres', url: 'postgres://root@127.0.0.1:5432/test' },
    ],
    [
      'postgresql://u:p@db/relay?sslmode=require',
      { dialect: 'postgres', url: 'postgresql://u:p@db/relay?sslmode=require' },
    ],
  ])('reads %s', (raw, expected) => {
    expect(parseDatabaseUrl(raw)).toEqual({ ok: true, value: expected });
  });

  it.each([
    '',
    'relay.db',
    'sqlite:',
    'mysql://db/relay',
    'postgres://db',
    'postgres:///relay',
    'postgres://db/a/b',
  ])('refuses %j', (raw) => {
    expect(parseDatabaseUrl(raw).ok).toBe(false);
  });
});

describe('describeDatabaseLocation', () => {
  it('never shows a password or the query', () => {
    const parsed = parseDatabaseUrl('postgres://relay:hunter22@db.internal:5433/relay?password=x');
    if (!parsed.ok) throw new Error('unparsed');
    const shown = describeDatabaseLocation(parsed.value);
    expect(shown).toBe('postgres://relay:***@db.internal:5433/relay');
    expect(shown).not.toContain('hunter22');
  });
});
