import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import type { ChildProcess } from 'node:child_process';

/** A relay-server child process that has printed its listening URL. */
export interface ServerProcess {
  /** The URL from `relay-server listening on <url>`. */
  readonly url: string;
  /** The child's process id. */
  readonly pid: number;
  /** The last lines the server wrote (stdout and stderr), for a failure report. */
  recentOutput(): readonly string[];
  /** Settles when the process exits, for whatever reason. */
  readonly exited: Promise<void>;
  /** SIGTERM, then SIGKILL after `graceMs` (default 5 s); resolves once the process has exited. */
  stop(graceMs?: number): Promise<void>;
}

/** Options of {@link startServerProcess}. */
export interface ServerProcessOptions {
  /** The built entry point, `apps/server/dist/main.js`. */
  readonly mainPath: string;
  /** The whole environment of the child (nothing else is inherited). */
  readonly env: Readonly<Record<string, string>>;
  /** How long to wait for the listening line; default 20 s. */
  readonly startTimeoutMs?: number;
  /** Called with the child's stop action as soon as it is spawned, before it listens. */
  readonly onSpawn?: (stop: () => Promise<void>) => void;
}

const RECENT_LINES = 20;
const LISTENING = /relay-server listening on (http:\/\/[^\s"]+)/;

function hasExited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

function waitForExit(child: ChildProcess): Promise<void> {
  if (hasExited(child)) return Promise.resolve();
  return new Promise((resolve) => {
    child.once('exit', () => {
      resolve();
    });
  });
}

/**
 * Starts relay-server with Node (process.execPath, the Node running the demo) and waits until it
 * listens. Its output is read continuously (a full pipe would block the server) and only the
 * last lines are kept; they are never printed unless the start fails.
 *
 * @throws Error when the server exits or stays silent before listening (the message carries
 *   its last output lines, which the server guarantees free of secrets)
 */
export async function startServerProcess(options: ServerProcessOptions): Promise<ServerProcess> {
  // The node flags relay-server's bin starts with (its `#!/usr/bin/env -S node …` line: the heap
  // bounds of apps/server/README.md), so the demo runs the server as deployed.
  const shebang = readFileSync(options.mainPath, 'utf8').split('\n', 1)[0] ?? '';
  const nodeFlags = /^#!\/usr\/bin\/env -S node (.+)$/.exec(shebang)?.[1]?.split(' ') ?? [];
  const child = spawn(process.execPath, [...nodeFlags.filter((f) => f !== ''), options.mainPath], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...options.env },
  });
  const exited = waitForExit(child);
  const recent: string[] = [];
  let partial = '';
  const collect = (chunk: Buffer) => {
    const lines = (partial + chunk.toString('utf8')).split('\n');
    partial = lines.pop() ?? '';
    for (const line of lines) {
      recent.push(line);
      if (recent.length > RECENT_LINES) recent.shift();
    }
  };
  child.stdout.on('data', collect);
  child.stderr.on('data', collect);

  const stop = async (graceMs = 5000) => {
    if (hasExited(child)) return;
    child.kill('SIGTERM');
    const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
    await exited;
    clearTimeout(timer);
  };
  options.onSpawn?.(() => stop());

  const url = await new Promise<string>((resolve, reject) => {
    let seen = '';
    const timer = setTimeout(() => {
      reject(new Error(`relay-server did not start in time:\n${recent.join('\n')}`));
    }, options.startTimeoutMs ?? 20_000);
    const onData = (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const match = LISTENING.exec(seen);
      if (match?.[1] !== undefined) {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', onData);
    child.once('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      const how = signal ?? `code ${String(code)}`;
      reject(new Error(`relay-server exited (${how}):\n${[...recent, partial].join('\n')}`));
    });
  });

  return {
    url,
    pid: child.pid ?? -1,
    exited,
    recentOutput: () => [...recent],
    stop,
  };
}
