import { z } from 'zod';

/**
 * A pool id: 1-100 characters of letters, digits, '.', '_' and '-', starting with a letter or
 * digit. Pool ids appear in URL paths, so nothing else is accepted.
 */
export const poolIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/, { error: 'pool id: 1-100 of [A-Za-z0-9._-]' });

/**
 * A forge account or organization login (GitHub: 1-39 letters, digits or single hyphens).
 * Case is kept; compare logins case-insensitively.
 */
export const forgeLoginSchema = z
  .string()
  .regex(/^[A-Za-z0-9](?:[A-Za-z0-9]|-(?=[A-Za-z0-9])){0,38}$/, { error: 'not a forge login' });

/** A repository name (GitHub: 1-100 of letters, digits, '.', '_' and '-'; not '.' or '..'). */
export const repoNameSchema = z
  .string()
  .regex(/^[A-Za-z0-9._-]{1,100}$/, { error: 'not a repository name' })
  .refine((name) => name !== '.' && name !== '..', { error: 'not a repository name' });

/** A git commit hash: 40 (SHA-1) or 64 (SHA-256) hexadecimal digits, normalized to lowercase. */
export const commitShaSchema = z
  .string()
  .regex(/^(?:[0-9a-fA-F]{40}|[0-9a-fA-F]{64})$/, { error: 'not a commit hash' })
  .transform((sha) => sha.toLowerCase());

/** An ISO 8601 UTC timestamp (`2026-01-02T03:04:05Z`, optional fraction). */
export const utcTimestampSchema = z.iso.datetime({ offset: false });

/** A secret binding name: 1-128 characters of `[A-Za-z0-9_.-]` (DESIGN.md §3). */
export const secretRefSchema = z
  .string()
  .regex(/^[A-Za-z0-9_.-]{1,128}$/, { error: 'secret_ref: 1-128 of [A-Za-z0-9_.-]' });

/** An absolute http(s) URL. */
export const httpUrlSchema = z.url({ protocol: /^https?$/ });

/** A semantic version `MAJOR.MINOR.PATCH` with an optional pre-release. */
export const semverSchema = z
  .string()
  .regex(/^(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)\.(?:0|[1-9]\d*)(?:-[0-9A-Za-z.-]+)?$/, {
    error: 'not a semantic version',
  });
