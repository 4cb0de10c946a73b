/**
 * The benchmark forge-sim in a process of its own, as the forge is a host of its own: a
 * benchmark that measures latency against the simulator would otherwise fetch from its own event
 * loop on one arm (no process boundary crossed) while the relay's upstream request crosses one.
 *
 * The child (this file run directly) starts the benchmark world, adds the users and pooled PATs
 * asked for, prints one JSON line (URLs, repositories, PAT tokens) and stops on SIGTERM.
 * {@link startSimProcess} runs it.
 */
import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import type { ForgeSim } from '@relay/forge-sim';
import {
  issueBenchPats,
  startBenchSim,
  type BenchRepo,
  type BenchSimOptions,
  type PatToken,
} from './bench-world.js';
import { SOURCE_FLAGS } from './relay-process.js';

/** What the parent asks of the simulator process. */
export interface SimProcessOptions extends Omit<BenchSimOptions, 'clock'> {
  /** Forge users to create (for example the caller a relay provisions). */
  readonly users: readonly string[];
  /** Pooled PATs to create, `bench-pat-1` … (members of the benchmark organization). */
  readonly pats: number;
}

/** A running simulator process. */
export interface SimProcess {
  readonly urls: ForgeSim['urls'];
  readonly repos: readonly BenchRepo[];
  readonly pats: readonly PatToken[];
  stop(): Promise<void>;
}

interface Ready {
  readonly urls: ForgeSim['urls'];
  readonly repos: BenchRepo[];
  readonly pats: PatToken[];
}

/** Starts forge-sim with the benchmark world in its own Node process. */
export async function startSimProcess(options: SimProcessOptions): Promise<SimProcess> {
  const child = spawn(
    process.execPath,
    [...SOURCE_FLAGS, fileURLToPath(import.meta.url), JSON.stringify(options)],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const exited = new Promise<void>((resolve) =>
    child.once('exit', () => {
      resolve();
    }),
  );
  const ready = await new Promise<Ready>((resolve, reject) => {
    let out = '';
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => {
      out += chunk;
      // Complete lines only: the last element is what follows the last newline.
      const line = out
        .split('\n')
        .slice(0, -1)
        .find((l) => l.startsWith('{'));
      if (line !== undefined) resolve(JSON.parse(line) as Ready);
    });
    void exited.then(() => {
      reject(new Error('the simulator process exited before it was ready'));
    });
  });
  return {
    ...ready,
    async stop() {
      child.kill('SIGTERM');
      await exited;
    },
  };
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const options = JSON.parse(process.argv[2] ?? '{}') as SimProcessOptions;
  const { sim, repos } = await startBenchSim(options);
  for (const login of options.users) sim.world.addUser({ login });
  const pats = issueBenchPats(sim, options.pats);
  process.stdout.write(`${JSON.stringify({ urls: sim.urls, repos, pats } satisfies Ready)}\n`);
  process.once('SIGTERM', () => void sim.close());
}
