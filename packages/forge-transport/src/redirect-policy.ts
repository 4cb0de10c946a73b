import { err, ok } from '@relay/protocol';
import type { Result } from '@relay/protocol';
import { isAllowedLogTarget, parseCanonicalUrl } from './host-allowlist.js';
import type { ForgeHostKind, ForgeHosts } from './host-allowlist.js';

/** Where a response came from: a configured host, or an allowlisted log host. */
export type ForgeTargetKind = ForgeHostKind | 'log';

/**
 * Which redirects a request may follow. `job_log`: the API host's redirect to a signed
 * job-log download on an allowlisted log host, once. `default`: none from the API host.
 * Redirects between the public web, raw and patch hosts are followed in both.
 */
export type RedirectFlow = 'default' | 'job_log';

/** Redirects followed between public web, raw and patch hosts before giving up. */
export const MAX_PUBLIC_REDIRECTS = 3;

/** Statuses that are redirects (304 is a validation answer, 300 is returned as it is). */
export const REDIRECT_STATUSES: readonly number[] = [301, 302, 303, 307, 308];

/** A redirect the transport will follow. */
export interface RedirectTarget {
  /** The canonical target URL. */
  readonly url: URL;
  /** The host the target is on. */
  readonly kind: ForgeTargetKind;
}

/** One redirect to decide on. */
export interface RedirectInput {
  /** The allowlist. */
  readonly hosts: ForgeHosts;
  /** The redirect flow of the request. */
  readonly flow: RedirectFlow;
  /** The host that answered with the redirect. */
  readonly from: ForgeTargetKind;
  /** The URL that answered with the redirect, to resolve a relative `Location`. */
  readonly fromUrl: URL;
  /** How many redirects were followed before this one. */
  readonly followed: number;
  /** The `Location` header, if exactly one was sent. */
  readonly location: string | undefined;
}

const PUBLIC_KINDS = ['web', 'raw', 'patch'] as const satisfies readonly ForgeHostKind[];

/**
 * Decides whether to follow a redirect. The API host redirects only in the job-log flow, once,
 * to a log host ({@link isAllowedLogTarget}: https on the default port, the canonical hostname
 * equal to a log host or a dot-suffixed subdomain of one; http and any port only for a loopback
 * host that is itself a configured log host); a log host never redirects; the public
 * hosts redirect among themselves (same scheme, host and port as a configured base) at most
 * {@link MAX_PUBLIC_REDIRECTS} times. Userinfo, non-https schemes (except http to loopback) and
 * unparseable targets are refused. The caller still runs the rewrite check on the target.
 *
 * @param input - the redirect and its context
 * @returns the target, or `denied`
 */
export function decideRedirect(input: RedirectInput): Result<RedirectTarget, 'denied'> {
  if (input.location === undefined || input.location === '') return err('denied');
  const parsed = parseCanonicalUrl(input.location, input.fromUrl);
  if (!parsed.ok) return err('denied');
  const url = parsed.value;
  url.hash = '';
  switch (input.from) {
    case 'api':
      if (input.flow === 'job_log' && input.followed === 0) {
        return isAllowedLogTarget(url, input.hosts.logHosts)
          ? ok({ url, kind: 'log' })
          : err('denied');
      }
      return err('denied');
    case 'log':
      return err('denied');
    case 'web':
    case 'raw':
    case 'patch': {
      if (input.followed >= MAX_PUBLIC_REDIRECTS) return err('denied');
      const kind = PUBLIC_KINDS.find((k) => input.hosts.bases[k].origin === url.origin);
      return kind === undefined ? err('denied') : ok({ url, kind });
    }
  }
}
