import fc from 'fast-check';

/** A generated pattern: its rule-language source and an equivalent JS RegExp (`u` flag) source. */
export interface GeneratedPattern {
  readonly source: string;
  readonly js: string;
  /** It can only match empty (assertions and groups of them): the rule language quantifies none. */
  readonly zeroWidth?: boolean;
}

/** The characters generated inputs and literals are drawn from: ASCII, Latin-1, astral, `\n`. */
export const ALPHABET = ['a', 'b', 'c', '-', ' ', '\n', '.', '1', '_', 'é', '😀'] as const;

const literal: fc.Arbitrary<GeneratedPattern> = fc.constantFrom(
  { source: 'a', js: 'a' },
  { source: 'b', js: 'b' },
  { source: 'c', js: 'c' },
  { source: '\\-', js: '-' },
  { source: '\\.', js: '\\.' },
  { source: ' ', js: ' ' },
  { source: '\\n', js: '\\n' },
  { source: '1', js: '1' },
  { source: 'é', js: 'é' },
  { source: '😀', js: '😀' },
);

const characterClass: fc.Arbitrary<GeneratedPattern> = fc.constantFrom(
  { source: '[ab]', js: '[ab]' },
  { source: '[^a]', js: '[^a]' },
  { source: '[a-c]', js: '[a-c]' },
  { source: '[^\\n]', js: '[^\\n]' },
  { source: '[é😀]', js: '[é😀]' },
  { source: '[\\d\\-]', js: '[\\d\\-]' },
  { source: '.', js: '[^\\n]' },
  { source: '\\d', js: '\\d' },
  { source: '\\w', js: '\\w' },
  { source: '\\W', js: '\\W' },
  { source: '\\s', js: '[\\t\\n\\f\\r ]' },
  { source: '\\S', js: '[^\\t\\n\\f\\r ]' },
);

const assertion: fc.Arbitrary<GeneratedPattern> = fc.constantFrom(
  { source: '\\b', js: '\\b', zeroWidth: true },
  { source: '\\B', js: '\\B', zeroWidth: true },
  { source: '^', js: '^', zeroWidth: true },
  { source: '$', js: '$', zeroWidth: true },
);

const quantifier = fc.constantFrom('*', '+', '?', '{1,3}', '{2}', '*?', '+?', '??', '{0,2}?');

/** Patterns of the safe subset, with their JS equivalents (they may still be rejected as empty). */
export const generatedPattern: fc.Arbitrary<GeneratedPattern> = fc.letrec<{
  node: GeneratedPattern;
  atom: GeneratedPattern;
}>((tie) => ({
  atom: fc.oneof(
    { weight: 4, arbitrary: literal },
    { weight: 3, arbitrary: characterClass },
    {
      weight: 1,
      arbitrary: fc.tuple(tie('node'), fc.boolean()).map(([inner, capture]) => ({
        source: `(${capture ? '' : '?:'}${inner.source})`,
        js: `(${capture ? '' : '?:'}${inner.js})`,
        zeroWidth: inner.zeroWidth === true,
      })),
    },
  ),
  node: fc.oneof(
    { depthSize: 'small', withCrossShrink: true },
    fc
      .array(
        fc.oneof(
          { weight: 5, arbitrary: tie('atom') },
          {
            weight: 2,
            arbitrary: fc
              .tuple(
                tie('atom').filter((atom) => atom.zeroWidth !== true),
                quantifier,
              )
              .map(([atom, q]): GeneratedPattern => ({ source: atom.source + q, js: atom.js + q })),
          },
          { weight: 1, arbitrary: assertion },
        ),
        { minLength: 1, maxLength: 4 },
      )
      .map((parts) => ({
        source: parts.map((part) => part.source).join(''),
        js: parts.map((part) => part.js).join(''),
        zeroWidth: parts.every((part) => part.zeroWidth === true),
      })),
    fc.tuple(tie('node'), tie('node')).map(([left, right]) => ({
      source: `${left.source}|${right.source}`,
      js: `${left.js}|${right.js}`,
      zeroWidth: left.zeroWidth === true && right.zeroWidth === true,
    })),
  ),
})).node;

/** Inputs over {@link ALPHABET}. */
export const generatedText: fc.Arbitrary<string> = fc
  .array(fc.constantFrom(...ALPHABET), { maxLength: 40 })
  .map((chars) => chars.join(''));

/** Literal words, the commonest real rules. */
export const generatedWord: fc.Arbitrary<string> = fc
  .array(fc.constantFrom('a', 'b', 'c', '-', 'é', '😀'), { minLength: 1, maxLength: 4 })
  .map((chars) => chars.join(''));
