/**
 * Go's `sort.Slice` (Go 1.19 to 1.23: pattern-defeating quicksort, `pdqsort_func` in
 * `src/sort/zsortfunc.go`), ported step for step so that `relay native pr checks` orders rows
 * exactly as gh v2.60 (built with Go 1.22) does, including for comparators that are not a
 * strict weak order (gh's checks table treats most bucket pairs as equal) and for ties the
 * sort does not keep stable. Up to 12 elements Go runs a plain insertion sort (input order
 * survives among equal elements); above 12 the quicksort's pivots, its pattern breaking
 * (a xorshift seeded with the length, shifts 13/17/5 as in Go ≤ 1.23) and its heapsort
 * fallback decide where equal elements land.
 */

/** Go's `lessSwap` over an array: `less(i, j)` compares the elements at `i` and `j` now. */
interface LessSwap {
  less(i: number, j: number): boolean;
  swap(i: number, j: number): void;
}

type SortedHint = 'unknown' | 'increasing' | 'decreasing';

/** Go's `bits.Len(uint(x))`: the number of bits needed to represent `x` (0 for 0). */
function bitLength(x: number): number {
  return x <= 0 ? 0 : Math.floor(Math.log2(x)) + 1;
}

const MASK_64 = (1n << 64n) - 1n;

/** Go's `xorshift` (a uint64 seeded with the slice length): `Next` as Go ≤ 1.23 has it. */
function createXorshift(seed: number): () => bigint {
  let state = BigInt(seed) & MASK_64;
  return () => {
    state ^= (state << 13n) & MASK_64;
    state ^= state >> 17n;
    state ^= (state << 5n) & MASK_64;
    return state;
  };
}

function insertionSort(data: LessSwap, a: number, b: number): void {
  for (let i = a + 1; i < b; i += 1) {
    for (let j = i; j > a && data.less(j, j - 1); j -= 1) data.swap(j, j - 1);
  }
}

function siftDown(data: LessSwap, lo: number, hi: number, first: number): void {
  let root = lo;
  for (;;) {
    let child = 2 * root + 1;
    if (child >= hi) return;
    if (child + 1 < hi && data.less(first + child, first + child + 1)) child += 1;
    if (!data.less(first + root, first + child)) return;
    data.swap(first + root, first + child);
    root = child;
  }
}

function heapSort(data: LessSwap, a: number, b: number): void {
  const first = a;
  const lo = 0;
  const hi = b - a;
  for (let i = Math.trunc((hi - 1) / 2); i >= 0; i -= 1) siftDown(data, i, hi, first);
  for (let i = hi - 1; i >= 0; i -= 1) {
    data.swap(first, first + i);
    siftDown(data, lo, i, first);
  }
}

/** One quicksort partition around `data[pivot]`; whether the range was already partitioned. */
function partition(data: LessSwap, a: number, b: number, pivot: number): [number, boolean] {
  data.swap(a, pivot);
  let i = a + 1;
  let j = b - 1;
  while (i <= j && data.less(i, a)) i += 1;
  while (i <= j && !data.less(j, a)) j -= 1;
  if (i > j) {
    data.swap(j, a);
    return [j, true];
  }
  data.swap(i, j);
  i += 1;
  j -= 1;
  for (;;) {
    while (i <= j && data.less(i, a)) i += 1;
    while (i <= j && !data.less(j, a)) j -= 1;
    if (i > j) break;
    data.swap(i, j);
    i += 1;
    j -= 1;
  }
  data.swap(j, a);
  return [j, false];
}

/** Elements equal to `data[pivot]` first, then the greater ones; the start of the greater. */
function partitionEqual(data: LessSwap, a: number, b: number, pivot: number): number {
  data.swap(a, pivot);
  let i = a + 1;
  let j = b - 1;
  for (;;) {
    while (i <= j && !data.less(a, i)) i += 1;
    while (i <= j && data.less(a, j)) j -= 1;
    if (i > j) break;
    data.swap(i, j);
    i += 1;
    j -= 1;
  }
  return i;
}

/** Shifts at most 5 adjacent out-of-order pairs (none below 50 elements); whether sorted. */
function partialInsertionSort(data: LessSwap, a: number, b: number): boolean {
  const maxSteps = 5;
  const shortestShifting = 50;
  let i = a + 1;
  for (let step = 0; step < maxSteps; step += 1) {
    while (i < b && !data.less(i, i - 1)) i += 1;
    if (i === b) return true;
    if (b - a < shortestShifting) return false;
    data.swap(i, i - 1);
    // Go starts this shift at index 1 of the whole slice, not at `a`: kept as Go has it.
    if (i - a >= 2) {
      for (let j = i - 1; j >= 1; j -= 1) {
        if (!data.less(j, j - 1)) break;
        data.swap(j, j - 1);
      }
    }
    if (b - i >= 2) {
      for (let j = i + 1; j < b; j += 1) {
        if (!data.less(j, j - 1)) break;
        data.swap(j, j - 1);
      }
    }
  }
  return false;
}

function breakPatterns(data: LessSwap, a: number, b: number): void {
  const length = b - a;
  if (length < 8) return;
  const next = createXorshift(length);
  const modulus = BigInt(2 ** bitLength(length));
  const middle = a + Math.trunc(length / 4) * 2;
  for (let idx = middle - 1; idx <= middle + 1; idx += 1) {
    let other = Number(next() & (modulus - 1n));
    if (other >= length) other -= length;
    data.swap(idx, a + other);
  }
}

interface SwapCount {
  swaps: number;
}

function order2(data: LessSwap, a: number, b: number, count: SwapCount): [number, number] {
  if (data.less(b, a)) {
    count.swaps += 1;
    return [b, a];
  }
  return [a, b];
}

function median(data: LessSwap, a: number, b: number, c: number, count: SwapCount): number {
  const [low, middle] = order2(data, a, b, count);
  const [middle2] = order2(data, middle, c, count);
  return order2(data, low, middle2, count)[1];
}

function medianAdjacent(data: LessSwap, a: number, count: SwapCount): number {
  return median(data, a - 1, a, a + 1, count);
}

function choosePivot(data: LessSwap, a: number, b: number): [number, SortedHint] {
  const shortestNinther = 50;
  const maxSwaps = 4 * 3;
  const l = b - a;
  const count: SwapCount = { swaps: 0 };
  const quarter = Math.trunc(l / 4);
  let i = a + quarter;
  let j = a + quarter * 2;
  let k = a + quarter * 3;
  if (l >= 8) {
    if (l >= shortestNinther) {
      i = medianAdjacent(data, i, count);
      j = medianAdjacent(data, j, count);
      k = medianAdjacent(data, k, count);
    }
    j = median(data, i, j, k, count);
  }
  if (count.swaps === 0) return [j, 'increasing'];
  if (count.swaps === maxSwaps) return [j, 'decreasing'];
  return [j, 'unknown'];
}

function reverseRange(data: LessSwap, a: number, b: number): void {
  let i = a;
  let j = b - 1;
  while (i < j) {
    data.swap(i, j);
    i += 1;
    j -= 1;
  }
}

function pdqsort(data: LessSwap, a: number, b: number, limit: number): void {
  const maxInsertion = 12;
  let wasBalanced = true;
  let wasPartitioned = true;
  for (;;) {
    const length = b - a;
    if (length <= maxInsertion) {
      insertionSort(data, a, b);
      return;
    }
    if (limit === 0) {
      heapSort(data, a, b);
      return;
    }
    if (!wasBalanced) {
      breakPatterns(data, a, b);
      limit -= 1;
    }
    let [pivot, hint] = choosePivot(data, a, b);
    if (hint === 'decreasing') {
      reverseRange(data, a, b);
      pivot = b - 1 - (pivot - a);
      hint = 'increasing';
    }
    if (wasBalanced && wasPartitioned && hint === 'increasing') {
      if (partialInsertionSort(data, a, b)) return;
    }
    if (a > 0 && !data.less(a - 1, pivot)) {
      a = partitionEqual(data, a, b, pivot);
      continue;
    }
    const [mid, alreadyPartitioned] = partition(data, a, b, pivot);
    wasPartitioned = alreadyPartitioned;
    const leftLen = mid - a;
    const rightLen = b - mid;
    const balanceThreshold = Math.trunc(length / 8);
    if (leftLen < rightLen) {
      wasBalanced = leftLen >= balanceThreshold;
      pdqsort(data, a, mid, limit);
      a = mid + 1;
    } else {
      wasBalanced = rightLen >= balanceThreshold;
      pdqsort(data, mid + 1, b, limit);
      b = mid;
    }
  }
}

/**
 * Sorts `items` in place exactly as Go's `sort.Slice(items, less)` does (Go 1.19–1.23):
 * the same comparisons in the same order, so the same final order even when `less` is not a
 * strict weak order or elements compare equal.
 *
 * @param less - Go's `less(i, j)`, over the elements themselves
 */
export function sortSliceGo<T>(items: T[], less: (a: T, b: T) => boolean): void {
  const data: LessSwap = {
    less: (i, j) => less(items[i] as T, items[j] as T),
    swap: (i, j) => {
      const held = items[i] as T;
      items[i] = items[j] as T;
      items[j] = held;
    },
  };
  pdqsort(data, 0, items.length, bitLength(items.length));
}
