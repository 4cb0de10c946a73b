/**
 * Matches request paths against GitHub-style templates. `{name}` matches one segment;
 * `{name+}` matches one or more segments (GitHub's x-multi-segment parameters such as
 * branch names with slashes). Routes are tried in the order they were added, so literal
 * routes (`/pulls/comments/{id}`) go before parameter routes (`/pulls/{number}`).
 */
export class PathRouter<T> {
  readonly #routes: { template: string; segments: string[]; value: T }[] = [];

  /** Adds a route. */
  add(template: string, value: T): this {
    this.#routes.push({ template, segments: template.split('/').slice(1), value });
    return this;
  }

  /** The first route matching `path` (already percent-decoded per segment), with params. */
  match(path: string): { value: T; template: string; params: Record<string, string> } | undefined {
    const parts = path.split('/').slice(1);
    for (const route of this.#routes) {
      const params = matchSegments(route.segments, parts);
      if (params) return { value: route.value, template: route.template, params };
    }
    return undefined;
  }
}

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function matchSegments(
  template: readonly string[],
  parts: readonly string[],
): Record<string, string> | undefined {
  const multi = template.findIndex((s) => s.endsWith('+}'));
  if (multi < 0) {
    if (template.length !== parts.length) return undefined;
    return matchFixed(template, parts);
  }
  const suffixLength = template.length - multi - 1;
  if (parts.length < template.length) return undefined;
  const head = matchFixed(template.slice(0, multi), parts.slice(0, multi));
  const tail = matchFixed(template.slice(multi + 1), parts.slice(parts.length - suffixLength));
  if (!head || !tail) return undefined;
  const middle = parts.slice(multi, parts.length - suffixLength);
  if (middle.some((p) => p === '')) return undefined;
  const name = (template[multi] ?? '').slice(1, -2);
  return { ...head, ...tail, [name]: middle.map(decode).join('/') };
}

function matchFixed(
  template: readonly string[],
  parts: readonly string[],
): Record<string, string> | undefined {
  const params: Record<string, string> = {};
  for (let i = 0; i < template.length; i++) {
    const t = template[i] ?? '';
    const p = parts[i] ?? '';
    if (t.startsWith('{') && t.endsWith('}')) {
      if (p === '') return undefined;
      params[t.slice(1, -1)] = decode(p);
    } else if (t !== p) {
      return undefined;
    }
  }
  return params;
}
