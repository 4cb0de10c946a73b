import { spawn, type ChildProcessWithoutNullStreams } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const appDir = dirname(dirname(dirname(fileURLToPath(import.meta.url))));

/** A relay-server child process started from source. */
export interface ReplicaProcess {
  readonly name: string;
  readonly url: string;
  readonly child: ChildProcessWithoutNullStreams;
  /** Everything it printed on stderr so far (start-up failures, crashes). */
  stderr(): string;
  /** Everything it printed on stdout so far (its JSON log lines). */
  stdout(): string;
  /** Stops it (SIGTERM, then SIGKILL after 5 s) and waits for its exit. */
  stop(): Promise<void>;
}

/**
 * Starts relay-server from source (as main.test.ts does) with `env` on top of a minimal
 * environment (PATH only), listening on an ephemeral loopback port; resolves once it prints its
 * start-up line.
 *
 * @param name - a label for failure messages
 * @param env - the relay's variables
 */
export async function startReplicaProcess(
  name: string,
  env: Readonly<Record<string, string>>,
): Promise<ReplicaProcess> {
  const child = spawn(
    process.execPath,
    ['--conditions=@relay/source', '--import', 'tsx', join(appDir, 'src/main.ts')],
    {
      cwd: appDir,
      env: { PATH: process.env.PATH ?? '', RELAY_HOST: '127.0.0.1', RELAY_PORT: '0', ...env },
    },
  );
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
  const exited = new Promise<number | null>((resolve) =>
    child.on('exit', (code) => {
      resolve(code);
    }),
  );
  const url = await new Promise<string>((resolve, reject) => {
    const onData = () => {
      const match = /relay-server listening on (http:\/\/[^\s"]+)/.exec(stdout);
      if (match?.[1] !== undefined) {
        child.stdout.off('data', onData);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', onData);
    void exited.then((code) => {
      reject(new Error(`${name} exited ${String(code)}: ${stderr}${stdout}`));
    });
  });
  return {
    name,
    url,
    child,
    stderr: () => stderr,
    stdout: () => stdout,
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 5000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** What an HTTP call to a replica answered. */
export interface ReplicaAnswer {
  readonly status: number;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- test bodies are inspected freely
  readonly json: any;
}

/**
 * One JSON request to a replica with a bearer token.
 *
 * @param url - the replica's base URL
 * @param method - HTTP method
 * @param path - the path
 * @param token - bearer token
 * @param body - JSON body, if any
 */
export async function callReplica(
  url: string,
  method: string,
  path: string,
  token: string,
  body?: unknown,
): Promise<ReplicaAnswer> {
  const response = await fetch(`${url}${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { 'content-type': 'application/json' }),
    },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await response.text();
  let json: unknown;
  try {
    json = text === '' ? undefined : JSON.parse(text);
  } catch {
    json = text;
  }
  return { status: response.status, json };
}
