/** The tables of the relay's database, as Kysely sees them. */
export interface DatabaseSchema {
  relay_meta: {
    key: string;
    value: string;
    updated_at: string;
  };
}
