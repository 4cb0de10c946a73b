import { lstat } from 'node:fs/promises';
import { extname } from 'node:path';
import { err, ok } from '@relay/protocol';
import type { Result } from '@relay/protocol';

/** What `lstat` says of a file the command names (a symbolic link is `other`). */
export type FileFacts =
  | { readonly kind: 'file'; readonly size: number }
  | { readonly kind: 'other' }
  | { readonly kind: 'missing' };

const KIB = 1024;
const MIB = 1024 * KIB;
const GIB = 1024 * MIB;

/** SPEC.md client rule 16's release-asset limits. */
export const RELEASE_ASSET_LIMITS = {
  maxFiles: 16,
  maxFileBytes: GIB,
  maxTotalBytes: 4 * GIB,
  maxBasenameBytes: 255,
} as const;

/** SPEC.md client rule 16's attachment limits. */
export const ATTACHMENT_LIMITS = {
  maxFiles: 16,
  maxImageBytes: 10 * MIB,
  maxVideoBytes: 100 * MIB,
  maxTotalBytes: 100 * MIB,
} as const;

/** Attachment kinds by lower-case extension. */
export const ATTACHMENT_TYPES: Readonly<Record<string, 'image' | 'video'>> = {
  '.gif': 'image',
  '.jpeg': 'image',
  '.jpg': 'image',
  '.png': 'image',
  '.webp': 'image',
  '.mov': 'video',
  '.mp4': 'video',
  '.webm': 'video',
};

/** Why files are refused; `index` is the file's 0-based position among the command's files. */
export type FileRefusal =
  | { readonly code: 'too_many_files'; readonly limit: number }
  | { readonly code: 'not_regular_file'; readonly index: number }
  | { readonly code: 'empty_file'; readonly index: number }
  | { readonly code: 'file_too_large'; readonly index: number; readonly limit: number }
  | { readonly code: 'total_too_large'; readonly limit: number }
  | { readonly code: 'invalid_asset_name'; readonly index: number }
  | { readonly code: 'unsupported_attachment_type'; readonly index: number };

/**
 * An asset name the forge stores as given: 1 to 255 bytes of ASCII letters, digits, periods,
 * underscores and hyphens, a period never first or last.
 */
const ASSET_NAME = /^(?!\.)[A-Za-z0-9._-]{1,255}(?<!\.)$/;

/** Whether `name` is a valid release-asset basename (SPEC.md client rule 16). */
export function isValidAssetName(name: string): boolean {
  return ASSET_NAME.test(name);
}

/**
 * Checks a command's release assets (SPEC.md client rule 16): at most 16 files, each a nonempty
 * regular file of at most 1 GiB with a valid basename ({@link isValidAssetName}), at most
 * 4 GiB together. The first problem wins, files in order.
 *
 * @param assets - each asset's basename and `lstat` facts, in command-line order
 */
export function checkReleaseAssets(
  assets: readonly { readonly basename: string; readonly facts: FileFacts }[],
): Result<void, FileRefusal> {
  const limits = RELEASE_ASSET_LIMITS;
  if (assets.length > limits.maxFiles)
    return err({ code: 'too_many_files', limit: limits.maxFiles });
  let total = 0;
  for (const [index, { basename, facts }] of assets.entries()) {
    if (!isValidAssetName(basename)) return err({ code: 'invalid_asset_name', index });
    if (facts.kind !== 'file') return err({ code: 'not_regular_file', index });
    if (facts.size === 0) return err({ code: 'empty_file', index });
    if (facts.size > limits.maxFileBytes) {
      return err({ code: 'file_too_large', index, limit: limits.maxFileBytes });
    }
    total += facts.size;
  }
  if (total > limits.maxTotalBytes)
    return err({ code: 'total_too_large', limit: limits.maxTotalBytes });
  return ok(undefined);
}

/**
 * Checks a command's attachments (SPEC.md client rule 16): at most 16 regular files; images
 * (GIF, JPEG/JPG, PNG, WebP, by extension in any case) up to 10 MiB each, videos (MOV, MP4,
 * WebM) up to 100 MiB each, 100 MiB together; any other type is refused.
 *
 * @param files - each file's name and `lstat` facts, in command-line order
 */
export function checkAttachments(
  files: readonly { readonly name: string; readonly facts: FileFacts }[],
): Result<void, FileRefusal> {
  const limits = ATTACHMENT_LIMITS;
  if (files.length > limits.maxFiles)
    return err({ code: 'too_many_files', limit: limits.maxFiles });
  let total = 0;
  for (const [index, { name, facts }] of files.entries()) {
    const type = ATTACHMENT_TYPES[extname(name).toLowerCase()];
    if (type === undefined) return err({ code: 'unsupported_attachment_type', index });
    if (facts.kind !== 'file') return err({ code: 'not_regular_file', index });
    const limit = type === 'image' ? limits.maxImageBytes : limits.maxVideoBytes;
    if (facts.size > limit) return err({ code: 'file_too_large', index, limit });
    total += facts.size;
  }
  if (total > limits.maxTotalBytes)
    return err({ code: 'total_too_large', limit: limits.maxTotalBytes });
  return ok(undefined);
}

/** The message of a {@link FileRefusal} for release assets or attachments. */
export function formatFileRefusal(
  what: 'release asset' | 'attachment',
  refusal: FileRefusal,
): string {
  const nth = (index: number) => `${what} ${String(index + 1)}`;
  switch (refusal.code) {
    case 'too_many_files':
      return `refused: more than ${String(refusal.limit)} ${what}s`;
    case 'not_regular_file':
      return `refused: ${nth(refusal.index)} is not a regular file`;
    case 'empty_file':
      return `refused: ${nth(refusal.index)} is empty`;
    case 'file_too_large':
      return `refused: ${nth(refusal.index)} is larger than ${formatBytes(refusal.limit)}`;
    case 'total_too_large':
      return `refused: the ${what}s are larger than ${formatBytes(refusal.limit)} together`;
    case 'invalid_asset_name':
      return `refused: the name of ${nth(refusal.index)} is not 1 to 255 ASCII letters, digits, internal periods, underscores or hyphens`;
    case 'unsupported_attachment_type':
      return `refused: ${nth(refusal.index)} is not a GIF, JPEG, PNG, WebP, MOV, MP4 or WebM file`;
  }
}

function formatBytes(bytes: number): string {
  return bytes >= GIB ? `${String(bytes / GIB)} GiB` : `${String(bytes / MIB)} MiB`;
}

/** The `lstat` facts of `path` (the shell of {@link checkReleaseAssets}). */
export async function readFileFacts(path: string): Promise<FileFacts> {
  try {
    const stats = await lstat(path);
    return stats.isFile() ? { kind: 'file', size: stats.size } : { kind: 'other' };
  } catch {
    return { kind: 'missing' };
  }
}
