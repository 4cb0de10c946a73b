/**
 * Wraps a schema builder so that the schema is built on the first call and that call's instance
 * is returned after. Building a zod schema is not free (every instance gets its methods and
 * checks at construction), and a short-lived process such as the CLI reads only a few wire
 * objects: a schema that is reached only through its getter is built only when it is used. The
 * exported `…Schema` constants call their getter once at import (marked pure, so that a bundle
 * that never reads the constant drops it), so every importer of a constant sees one instance.
 */
export function lazySchema<T>(build: () => T): () => T {
  let schema: T | undefined;
  return () => (schema ??= build());
}
