import { describe, expect, it } from 'vitest';
import { createBufferedLineWriter } from './access-log.js';

function setup(maxBufferedChars?: number) {
  const writes: string[] = [];
  const pending: (() => void)[] = [];
  const writer = createBufferedLineWriter((chunk) => writes.push(chunk), {
    schedule: (flush) => pending.push(flush),
    ...(maxBufferedChars === undefined ? {} : { maxBufferedChars }),
  });
  const runScheduled = () => {
    for (const flush of pending.splice(0)) flush();
  };
  return { writer, writes, pending, runScheduled };
}

describe('createBufferedLineWriter', () => {
  it('writes the lines of one tick in one write, in order, one line each', () => {
    const { writer, writes, pending, runScheduled } = setup();
    writer.writeLine('{"n":1}');
    writer.writeLine('{"n":2}');
    expect(writes).toEqual([]);
    expect(pending).toHaveLength(1);
    runScheduled();
    expect(writes).toEqual(['{"n":1}\n{"n":2}\n']);
    writer.writeLine('{"n":3}');
    runScheduled();
    expect(writes).toEqual(['{"n":1}\n{"n":2}\n', '{"n":3}\n']);
  });

  it('flushes at once past the size bound, and on demand', () => {
    const { writer, writes, runScheduled } = setup(10);
    writer.writeLine('12345');
    writer.writeLine('67890');
    expect(writes).toEqual(['12345\n67890\n']);
    writer.writeLine('x');
    writer.flush();
    expect(writes).toEqual(['12345\n67890\n', 'x\n']);
    runScheduled();
    writer.flush();
    expect(writes).toHaveLength(2);
  });
});
