/**
 * Benchmark: 128 rules (64 literal words, 64 class patterns) over 1 MiB of mostly-ASCII text,
 * full rewrite plus final scan, median ms; against an (unsafe) JS RegExp implementation of the
 * same pass and plain rule-by-rule re2js, measured in the same run. Then linearity on
 * `(a+)+$`-style inputs. Run with `pnpm bench`.
 */
import type { StringRewriteRule } from '@relay/protocol';
import { compileRules } from '../src/index.js';
import type { RuleSet } from '../src/index.js';

const MIB = 1024 * 1024;

/** A deterministic pseudo-random generator (mulberry32), so every run sees the same text. */
function createRandom(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const ADJECTIVES = ['blue', 'silent', 'amber', 'iron', 'quiet', 'rapid', 'north', 'hollow'];
const NOUNS = ['falcon', 'harbor', 'meadow', 'lantern', 'summit', 'orchid', 'cinder', 'glacier'];
const FILLER = (
  'the of and to in is for on that with as was by at from this be are or an it not we our ' +
  'build request response cache token release branch commit merge review issue label server ' +
  'client policy pattern module package version update deploy report status check result ' +
  'café naïve résumé über señor'
).split(' ');

function createRules(): { rules: StringRewriteRule[]; samples: string[] } {
  const rules: StringRewriteRule[] = [];
  const samples: string[] = [];
  for (const adjective of ADJECTIVES) {
    for (const noun of NOUNS) {
      rules.push({ pattern: `${adjective}${noun}`, replacement: 'codename' });
      samples.push(`${adjective}${noun}`);
    }
  }
  for (let i = 0; i < 64; i++) {
    const shape = i % 3;
    const tag = `${NOUNS[i % 8] ?? ''}${String(Math.floor(i / 8))}`;
    if (shape === 0) {
      rules.push({ pattern: `acme${tag}-[a-z]+-internal`, replacement: '[internal]' });
      samples.push(`acme${tag}-billing-internal`);
    } else if (shape === 1) {
      rules.push({ pattern: `\\bproj${tag}(ect)?-x\\b`, replacement: '[project]' });
      samples.push(i % 2 === 0 ? `proj${tag}-x` : `proj${tag}ect-x`);
    } else {
      rules.push({ pattern: `internal${tag}-[0-9]{3,5}`, replacement: '[ticket]' });
      samples.push(`internal${tag}-${String(1000 + i * 37)}`);
    }
  }
  return { rules, samples };
}

function createText(samples: readonly string[], hits: number, seed: number): string {
  const random = createRandom(seed);
  const words: string[] = [];
  let length = 0;
  let line = 0;
  while (length < MIB) {
    let word = FILLER[Math.floor(random() * FILLER.length)] ?? '';
    if (random() < 0.002) word += ' 🚀';
    line += word.length + 1;
    const separator = line > 80 ? '\n' : ' ';
    if (line > 80) line = 0;
    words.push(word + separator);
    length += word.length + 1;
  }
  const step = Math.floor(words.length / hits);
  for (let i = 0; i < hits; i++) {
    const index = i * step + Math.floor(random() * step);
    words[index] = `${samples[Math.floor(random() * samples.length)] ?? ''} `;
  }
  let text = words.join('');
  // Exactly at most 1 MiB of UTF-8: trim the excess bytes (never inside a surrogate pair).
  for (
    let excess = Buffer.byteLength(text) - MIB;
    excess > 0;
    excess = Buffer.byteLength(text) - MIB
  ) {
    text = text.slice(0, text.length - excess).replace(/[\ud800-\udbff]$/, '');
  }
  return text;
}

/** The unsafe baseline: JS RegExp, one global replace per rule in order, then a final scan. */
function createJsPass(rules: readonly StringRewriteRule[]): (text: string) => string | null {
  const compiled = rules.map((rule) => ({
    global: new RegExp(rule.pattern, 'gu'),
    single: new RegExp(rule.pattern, 'u'),
    replacement: rule.replacement,
  }));
  return (text) => {
    let current = text;
    for (const rule of compiled) current = current.replace(rule.global, () => rule.replacement);
    for (const rule of compiled) if (rule.single.test(current)) return null;
    return current;
  };
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? Number.NaN;
}

function measure(runs: number, pass: () => unknown): number {
  pass();
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const start = performance.now();
    pass();
    times.push(performance.now() - start);
  }
  return median(times);
}

function mustCompile(rules: readonly StringRewriteRule[], strategy: 'fast' | 'plain'): RuleSet {
  const compiled = compileRules(rules, { strategy });
  if (!compiled.ok) throw new Error(`rules refused: ${compiled.error.code}`);
  return compiled.value;
}

const { rules, samples } = createRules();
const fast = mustCompile(rules, 'fast');
const plain = mustCompile(rules, 'plain');
const jsPass = createJsPass(rules);
const runs = Number(process.argv[2] ?? 9);

console.log('128 rules over 1 MiB: full rewrite plus final scan (median ms)');
console.log('| hits | JS RegExp (unsafe) | re2js plain | rewrite-engine | engine / JS |');
console.log('|---|---|---|---|---|');
for (const hits of [128, 2000]) {
  const text = createText(samples, hits, hits);
  const expected = jsPass(text);
  const actual = fast.rewrite(text);
  if (!actual.ok || actual.value !== expected || !plain.rewrite(text).ok) {
    throw new Error('the engines disagree');
  }
  const js = measure(runs, () => jsPass(text));
  const re2 = measure(Math.max(3, Math.floor(runs / 3)), () => plain.rewrite(text));
  const ours = measure(runs, () => fast.rewrite(text));
  console.log(
    `| ${hits} | ${js.toFixed(1)} | ${re2.toFixed(1)} | ${ours.toFixed(1)} | ${(ours / js).toFixed(2)}x |`,
  );
}

console.log('\nLinearity on adversarial input: check + rewrite (median ms)');
console.log('| pattern | input | n | ms | ms per 10k chars |');
console.log('|---|---|---|---|---|');
const adversarial: [pattern: string, unit: string, tail: string][] = [
  ['(a+)+$', 'a', 'b'],
  ['(a|aa)+$', 'a', 'b'],
  ['(?:a*)*b$', 'a', 'bc'],
  ['(x+x+)+y', 'x', 'zy'],
  ['(?:word)+[0-9]-x', 'word', '-x'],
];
for (const [pattern, unit, tail] of adversarial) {
  const guard = mustCompile([{ pattern, replacement: '' }], 'fast');
  for (const n of [25_000, 50_000, 100_000]) {
    const text = unit.repeat(n / unit.length) + tail;
    const ms = measure(3, () => {
      guard.check(text);
      guard.rewrite(text);
    });
    const input = `"${unit}"×${String(n / unit.length)} + "${tail}"`;
    console.log(
      `| \`${pattern}\` | ${input} | ${String(n)} | ${ms.toFixed(1)} | ${((ms * 10_000) / n).toFixed(2)} |`,
    );
  }
}
