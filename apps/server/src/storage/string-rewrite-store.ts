import {
  err,
  ok,
  stringRewritePolicySchema,
  type Result,
  type StringRewritePolicy,
  type StringRewriteRule,
} from '@relay/protocol';
import type { Kysely } from 'kysely';
import type { DatabaseSchema } from './database-schema.js';

const POLICY_ROW_ID = 1;

/**
 * Why the policy cannot be used or replaced: `missing` (no row), `corrupt` (the row does not
 * parse as a policy), `revision_exhausted` (a replace only: the revision is the largest safe
 * integer, so no later one exists). Storage failures throw and are reported the same way by the
 * routes.
 */
export interface PolicyUnavailable {
  readonly code: 'string_rewrite_policy_unavailable';
  readonly cause: 'missing' | 'corrupt' | 'revision_exhausted';
}

/** A PUT refused because `expected_revision` is not the current revision. */
export interface RevisionConflict {
  readonly code: 'string_rewrite_revision_conflict';
}

/** The deployment-wide string-rewrite policy, in the primary store. */
export interface StringRewriteStore {
  /** Reads the policy from the database (never from a cache). */
  read(): Promise<Result<StringRewritePolicy, PolicyUnavailable>>;
  /**
   * A stamp that differs from every earlier one once the stored policy may have changed: at
   * once after every `replace` through this store, and within the external check interval after
   * a commit by another connection. Undefined when the backend cannot tell (then only a read can
   * say).
   */
  changeStamp(): string | undefined;
  /**
   * Atomically replaces the rules when `expectedRevision` is the current revision; the
   * revision increments even for an unchanged ruleset.
   */
  replace(
    expectedRevision: number,
    rules: readonly StringRewriteRule[],
    nowIso: string,
  ): Promise<Result<StringRewritePolicy, PolicyUnavailable | RevisionConflict>>;
}

function parseRow(
  row: DatabaseSchema['string_rewrite_policy'] | undefined,
): Result<StringRewritePolicy, PolicyUnavailable> {
  if (row === undefined)
    return err({ code: 'string_rewrite_policy_unavailable', cause: 'missing' });
  let rules: unknown;
  try {
    rules = JSON.parse(row.rules_json);
  } catch {
    return err({ code: 'string_rewrite_policy_unavailable', cause: 'corrupt' });
  }
  const parsed = stringRewritePolicySchema.safeParse({
    schema_version: row.schema_version,
    revision: Number(row.revision),
    updated_at: row.updated_at,
    rules,
  });
  if (!parsed.success) return err({ code: 'string_rewrite_policy_unavailable', cause: 'corrupt' });
  return ok(parsed.data);
}

/** Options of {@link createStringRewriteStore}. */
export interface StringRewriteStoreOptions {
  /**
   * Changes whenever another connection commits (SQLite's `data_version`); without it
   * {@link StringRewriteStore.changeStamp} is undefined.
   */
  readonly externalChangeVersion?: () => number;
  /**
   * How long one reading of {@link externalChangeVersion} stands, milliseconds (reading it
   * takes SQLite's WAL read lock: about 10 µs, a twentieth of a cache hit). A commit by another
   * connection is seen within this time; a replace through this store at once. Default 50.
   */
  readonly externalCheckIntervalMs?: number;
  /** The clock of {@link externalCheckIntervalMs}, milliseconds. Default `performance.now`. */
  readonly now?: () => number;
}

/** Default of {@link StringRewriteStoreOptions.externalCheckIntervalMs}. */
export const EXTERNAL_CHECK_INTERVAL_MS = 50;

/**
 * Creates the string-rewrite store over Kysely (portable SQL).
 *
 * @param db - the database
 * @param options - the external change detector of the backend
 */
export function createStringRewriteStore(
  db: Kysely<DatabaseSchema>,
  options: StringRewriteStoreOptions = {},
): StringRewriteStore {
  const { externalChangeVersion } = options;
  const checkIntervalMs = options.externalCheckIntervalMs ?? EXTERNAL_CHECK_INTERVAL_MS;
  const now = options.now ?? (() => performance.now());
  let external: { readonly version: number; readonly readAt: number } | undefined;
  const externalVersion = (read: () => number): number => {
    const at = now();
    if (external === undefined || at - external.readAt >= checkIntervalMs || at < external.readAt) {
      external = { version: read(), readAt: at };
    }
    return external.version;
  };
  // Bumped by every replace through this store, committed or not: a stamp never repeats.
  let localGeneration = 0;
  // Every relay request reads the policy: the query is compiled once, and a row identical to
  // the last one parsed (same revision, update time, schema version and rules text) reuses that
  // parse instead of JSON.parse and schema validation again. A changed, missing or corrupt row
  // is always parsed anew, so a PUT still takes effect at once and a bad policy still blocks.
  const readQuery = db
    .selectFrom('string_rewrite_policy')
    .selectAll()
    .where('id', '=', POLICY_ROW_ID)
    .compile();
  let lastParsed:
    | {
        readonly row: DatabaseSchema['string_rewrite_policy'];
        readonly policy: Result<StringRewritePolicy, PolicyUnavailable>;
      }
    | undefined;
  return {
    async read() {
      const row = (await db.executeQuery(readQuery)).rows[0];
      if (row === undefined) return parseRow(row);
      const last = lastParsed?.row;
      if (
        lastParsed !== undefined &&
        last?.revision === row.revision &&
        last.updated_at === row.updated_at &&
        last.schema_version === row.schema_version &&
        last.rules_json === row.rules_json
      ) {
        return lastParsed.policy;
      }
      const policy = parseRow(row);
      if (policy.ok) {
        // Shared by later reads: frozen, so no reader can change what another one sees.
        for (const rule of policy.value.rules) Object.freeze(rule);
        Object.freeze(policy.value.rules);
        Object.freeze(policy.value);
        lastParsed = { row, policy };
      }
      return policy;
    },

    changeStamp() {
      if (externalChangeVersion === undefined) return undefined;
      return `${String(localGeneration)}:${String(externalVersion(externalChangeVersion))}`;
    },

    async replace(expectedRevision, rules, nowIso) {
      localGeneration++;
      try {
        return await replaceRow(expectedRevision, rules, nowIso);
      } finally {
        localGeneration++;
      }
    },
  };

  function replaceRow(
    expectedRevision: number,
    rules: readonly StringRewriteRule[],
    nowIso: string,
  ): Promise<Result<StringRewritePolicy, PolicyUnavailable | RevisionConflict>> {
    return db.transaction().execute(async (trx) => {
      const row = await trx
        .selectFrom('string_rewrite_policy')
        .selectAll()
        .where('id', '=', POLICY_ROW_ID)
        .executeTakeFirst();
      const current = parseRow(row);
      if (!current.ok) return current;
      if (current.value.revision !== expectedRevision) {
        return err({ code: 'string_rewrite_revision_conflict' as const });
      }
      if (current.value.revision >= Number.MAX_SAFE_INTEGER) {
        // No later revision is a safe integer: writing one would leave a row no read accepts
        // (an outage no PUT could repair). Nothing changes; the stored policy stays in force.
        return err({ code: 'string_rewrite_policy_unavailable', cause: 'revision_exhausted' });
      }
      const next: StringRewritePolicy = {
        schema_version: 1,
        revision: current.value.revision + 1,
        updated_at: nowIso,
        rules: rules.map((rule) => ({ pattern: rule.pattern, replacement: rule.replacement })),
      };
      const result = await trx
        .updateTable('string_rewrite_policy')
        .set({
          revision: next.revision,
          updated_at: next.updated_at,
          rules_json: JSON.stringify(next.rules),
        })
        .where('id', '=', POLICY_ROW_ID)
        .where('revision', '=', expectedRevision)
        .executeTakeFirst();
      if (result.numUpdatedRows !== 1n) {
        return err({ code: 'string_rewrite_revision_conflict' as const });
      }
      return ok(next);
    });
  }
}
