import type { StdioOptions } from 'node:child_process';
import { constants } from 'node:fs';
import { access, open, realpath } from 'node:fs/promises';
import { constants as osConstants, homedir, hostname } from 'node:os';
import { delimiter, isAbsolute, join } from 'node:path';
import type { CliDependencies, CliEnv, ProcessOutput } from './cli-dependencies.js';
import { createNodeRelayFetch } from './relay-fetch.js';

/** Whether Node is asked to honour HTTP_PROXY and its kin (then only the global fetch does). */
function usesEnvProxy(): boolean {
  const flag = '--use-env-proxy';
  return (
    (process.env.NODE_USE_ENV_PROXY ?? '') !== '' ||
    process.execArgv.includes(flag) ||
    (process.env.NODE_OPTIONS ?? '').includes(flag)
  );
}

async function isExecutable(path: string): Promise<boolean> {
  try {
    await access(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

function childEnv(env: CliEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = {};
  for (const [name, value] of Object.entries(env)) if (value !== undefined) out[name] = value;
  return out;
}

/** Options of {@link createNodeDependencies}. */
export interface NodeDependenciesOptions {
  /** The path of the running `relay` script (`process.argv[1]`), to recognise the shim. */
  readonly selfPath: string | undefined;
}

/**
 * The real effects: `process.env`, HTTP on node:http with keep-alive ({@link createNodeRelayFetch};
 * the global fetch for what it does not do), the wall clock, timers, node:child_process.
 * Only `main.ts` calls it.
 */
export function createNodeDependencies(options: NodeDependenciesOptions): CliDependencies {
  let selfReal: Promise<string | undefined> | undefined;
  const self = () =>
    (selfReal ??=
      options.selfPath === undefined
        ? Promise.resolve(undefined)
        : realpath(options.selfPath).catch(() => undefined));
  return {
    env: process.env,
    fetch: createNodeRelayFetch({
      fallback: () => globalThis.fetch,
      useEnvProxy: usesEnvProxy(),
    }),
    now: Date.now,
    sleep: (ms) =>
      new Promise<void>((resolve) => {
        setTimeout(resolve, ms);
      }),
    hostname,
    homeDir: homedir(),
    stdoutIsTTY: process.stdout.isTTY,
    stderrIsTTY: process.stderr.isTTY,
    readStdin: async (maxBytes) => {
      const chunks: Buffer[] = [];
      let total = 0;
      for await (const chunk of process.stdin) {
        chunks.push(chunk as Buffer);
        total += (chunk as Buffer).byteLength;
        // Past the bound the caller refuses anyway: stop reading (ending the loop closes stdin).
        if (maxBytes !== undefined && total > maxBytes) break;
      }
      return Buffer.concat(chunks);
    },
    runProcess: (file, args, { input, env }) =>
      new Promise<ProcessOutput>((resolve, reject) => {
        // node:child_process loads when a command first runs a process (a cached read runs none).
        const { execFile } = process.getBuiltinModule('node:child_process');
        const child = execFile(
          file,
          args,
          { env: childEnv(env), encoding: 'buffer', maxBuffer: 64 * 1024 * 1024 },
          (error, stdout, stderr) => {
            if (error !== null && typeof error.code === 'string') {
              reject(new Error(`cannot run ${file}`, { cause: error }));
              return;
            }
            resolve({ code: child.exitCode, stdout, stderr });
          },
        );
        child.stdin?.on('error', () => undefined);
        child.stdin?.end(input);
      }),
    execInherited: async (file, args, env, options = {}) => {
      // A checked snapshot as the child's standard input: opened read-only, closed once spawned.
      const input =
        options.stdinFile === undefined ? undefined : await open(options.stdinFile, 'r');
      try {
        return await new Promise<number>((resolve, reject) => {
          const { spawn } = process.getBuiltinModule('node:child_process');
          const stdio: StdioOptions =
            input === undefined ? 'inherit' : [input.fd, 'inherit', 'inherit'];
          const child = spawn(file, args, { env: childEnv(env), stdio });
          child.once('error', reject);
          child.once('exit', (code, signal) => {
            if (code !== null) resolve(code);
            else resolve(128 + (signal === null ? 0 : osConstants.signals[signal]));
          });
        });
      } finally {
        await input?.close();
      }
    },
    findExecutable: async (name, env, accept) => {
      for (const dir of (env.PATH ?? '').split(delimiter)) {
        if (dir === '' || !isAbsolute(dir)) continue;
        const candidate = join(dir, name);
        if (!(await isExecutable(candidate))) continue;
        if (accept === undefined || (await accept(candidate))) return candidate;
      }
      return undefined;
    },
    selfPath: options.selfPath,
    isRelayShim: async (path) => {
      const mine = await self();
      if (mine === undefined) return false;
      const theirs = await realpath(path).catch(() => undefined);
      return theirs === mine;
    },
  };
}
