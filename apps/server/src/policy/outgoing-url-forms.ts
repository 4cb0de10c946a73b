import { percentEncodingForms } from '@relay/protocol';

const ABSOLUTE_HTTP_URL = /^https?:\/\//iu;

/**
 * The values a transport-level string-rewrite check reads for one value the transport hands it
 * (an outgoing URL, or a header value, in one of its percent-encoding forms): the value itself
 * and, for an absolute http(s) URL, the structural values of the request it makes — its path
 * (in every percent-encoding form) and each query key and value as the forge reads them
 * (form-decoded). A pattern anchored to a path (`^/repos/acme/secret$`) or a query value
 * (`^secret$`) therefore holds for every request the relay makes — visibility probes,
 * pagination, followed redirects — as it does for the caller's own path and query, and not only
 * for the whole URL, where `^` is the scheme.
 *
 * @param values - the values the transport asks about
 * @returns every value to check, without duplicates (a value that does not parse as a URL is
 *   checked as it is)
 */
export function outgoingUrlForms(values: readonly string[]): string[] {
  const forms = new Set<string>();
  for (const value of values) {
    forms.add(value);
    if (!ABSOLUTE_HTTP_URL.test(value)) continue;
    let url: URL;
    try {
      url = new URL(value);
    } catch {
      continue;
    }
    for (const form of percentEncodingForms(url.pathname)) forms.add(form);
    for (const [key, item] of url.searchParams) {
      forms.add(key);
      forms.add(item);
    }
  }
  return [...forms];
}
