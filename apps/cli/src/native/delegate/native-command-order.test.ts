import { describe, expect, it } from 'vitest';
import { commandOrder } from './native-command-order.js';

describe('commandOrder: the command words first, as cobra finds them', () => {
  it.each<[string[], string[], number[]]>([
    [
      ['issue', 'comment', '3'],
      ['issue', 'comment', '3'],
      [0, 1, 2],
    ],
    [
      ['-R', 'o/r', 'issue', 'comment', '3'],
      ['issue', 'comment', '-R', 'o/r', '3'],
      [2, 3, 0, 1, 4],
    ],
    [
      ['issue', '-R', 'o/r', 'comment', '3'],
      ['issue', 'comment', '-R', 'o/r', '3'],
      [0, 3, 1, 2, 4],
    ],
    [
      ['-d', 'notes', 'gist', 'create', 'a.txt'],
      ['gist', 'create', '-d', 'notes', 'a.txt'],
      [2, 3, 0, 1, 4],
    ],
    [
      ['-X', 'POST', 'api', 'repos/o/r/issues', '--input', 'b.json'],
      ['api', '-X', 'POST', 'repos/o/r/issues', '--input', 'b.json'],
      [2, 0, 1, 3, 4, 5],
    ],
    [
      ['--x=1', 'gist', 'create'],
      ['gist', 'create', '--x=1'],
      [1, 2, 0],
    ],
    [
      ['-Rfoo', 'api', 'x'],
      ['api', '-Rfoo', 'x'],
      [1, 0, 2],
    ],
    [
      ['--help', 'issue', 'list'],
      ['issue', 'list', '--help'],
      [1, 2, 0],
    ],
    [['--version'], ['--version'], [0]],
    [
      ['-R', 'o/r'],
      ['-R', 'o/r'],
      [0, 1],
    ],
    [
      ['-R', 'issue'],
      ['-R', 'issue'],
      [0, 1],
    ],
    [
      ['--', 'issue', 'create'],
      ['--', 'issue', 'create'],
      [0, 1, 2],
    ],
    [
      ['--web', 'issue', 'create'],
      ['create', '--web', 'issue'],
      [2, 0, 1],
    ],
    [
      ['issue', '--help', 'create'],
      ['issue', 'create', '--help'],
      [0, 2, 1],
    ],
    [[], [], []],
  ])('%j', (argv, ordered, original) => {
    expect(commandOrder(argv)).toEqual({ argv: ordered, original });
  });
});
