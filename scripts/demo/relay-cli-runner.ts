import { spawn } from 'node:child_process';

/** What one run of the relay CLI printed, and its exit code. */
export interface CliRun {
  readonly args: readonly string[];
  /** The exit code; null when a signal ended it. */
  readonly code: number | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** Runs the built `relay` CLI as a child process. */
export type RelayCliRunner = (
  args: readonly string[],
  options?: { readonly env?: Readonly<Record<string, string>>; readonly stdin?: string },
) => Promise<CliRun>;

/** Options of {@link createRelayCliRunner}. */
export interface RelayCliRunnerOptions {
  /** The built bin, `apps/cli/dist/main.js`. */
  readonly binPath: string;
  /** The whole base environment of every run (nothing else is inherited). */
  readonly env: Readonly<Record<string, string>>;
}

/**
 * Creates a runner of the built CLI with Node (process.execPath). Each run gets the base
 * environment plus its own additions, stdin closed (or the given text), and its output captured.
 */
export function createRelayCliRunner(options: RelayCliRunnerOptions): RelayCliRunner {
  return (args, runOptions = {}) =>
    new Promise((resolve, reject) => {
      const child = spawn(process.execPath, [options.binPath, ...args], {
        env: { ...options.env, ...runOptions.env },
        stdio: ['pipe', 'pipe', 'pipe'],
      });
      const out: Buffer[] = [];
      const errOut: Buffer[] = [];
      child.stdout.on('data', (chunk: Buffer) => out.push(chunk));
      child.stderr.on('data', (chunk: Buffer) => errOut.push(chunk));
      child.stdin.end(runOptions.stdin);
      child.once('error', reject);
      child.once('close', (code) => {
        resolve({
          args,
          code,
          stdout: Buffer.concat(out).toString('utf8'),
          stderr: Buffer.concat(errOut).toString('utf8'),
        });
      });
    });
}
