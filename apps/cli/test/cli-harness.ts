import { createServer } from 'node:http';
import type { IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import type { CliDependencies, CliEnv, ProcessOutput } from '../src/cli-dependencies.js';
import { createCli } from '../src/create-cli.js';

/** One request the stub relay received. */
export interface StubRequest {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- bodies are inspected freely
  readonly json: any;
}

/** What the stub answers: a status and a JSON body (or raw text), and headers. */
export interface StubAnswer {
  readonly status: number;
  readonly json?: unknown;
  readonly text?: string;
  readonly headers?: Record<string, string>;
}

/** The pool string-rewrites endpoint, which the stub answers itself. */
const POLICY_PATH = /^\/v1\/pools\/[^/?]+\/string-rewrites$/;
const EMPTY_POLICY = {
  schema_version: 1,
  revision: 1,
  updated_at: '2030-01-01T00:00:00.000Z',
  rules: [],
};

/** A node:http stub of the relay's documented contract on 127.0.0.1:0. */
export interface StubRelay {
  readonly url: string;
  readonly requests: StubRequest[];
  /** GET /v1/pools/:pool/string-rewrites requests, answered with an empty policy. */
  readonly policyRequests: StubRequest[];
  close(): Promise<void>;
}

/** Starts a stub relay; `answer` decides every response. */
export async function startStubRelay(
  answer: (request: StubRequest, index: number) => StubAnswer,
): Promise<StubRelay> {
  const requests: StubRequest[] = [];
  const policyRequests: StubRequest[] = [];
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const request: StubRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        // eslint-disable-next-line @typescript-eslint/no-unsafe-assignment -- parsed test bodies are inspected freely
        json: text === '' ? undefined : JSON.parse(text),
      };
      // The outbound string guard (client rule 15) reads the pool's policy before every
      // `relay native` relay request and native dispatch: an empty policy, kept out of
      // `requests` so that each test sees only its relay traffic.
      if (request.method === 'GET' && POLICY_PATH.test(request.url)) {
        policyRequests.push(request);
        res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
        res.end(JSON.stringify(EMPTY_POLICY));
        return;
      }
      requests.push(request);
      const reply = answer(request, requests.length - 1);
      res.writeHead(reply.status, {
        'content-type': 'application/json',
        'x-relay-request-id': `req-${requests.length}`,
        ...reply.headers,
      });
      res.end(reply.text ?? (reply.json === undefined ? '' : JSON.stringify(reply.json)));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    policyRequests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => {
          resolve();
        });
        server.closeAllConnections();
      }),
  };
}

/** A temporary directory removed by `remove`. */
export function createTempDir(): { path: string; remove: () => void } {
  const path = mkdtempSync(join(tmpdir(), 'relay-cli-'));
  return {
    path,
    remove: () => {
      rmSync(path, { recursive: true, force: true });
    },
  };
}

/** A native CLI run recorded by the fake `execInherited`. */
export interface NativeRun {
  readonly file: string;
  readonly args: readonly string[];
  readonly env: CliEnv;
}

/** Fake dependencies plus what they recorded. */
export interface FakeDependencies extends CliDependencies {
  readonly nativeRuns: NativeRun[];
  readonly sleeps: number[];
  readonly processRuns: { file: string; args: readonly string[] }[];
}

/** Overrides of {@link createFakeDependencies}. */
export interface FakeOptions {
  readonly env?: CliEnv;
  readonly nativeExitCode?: number;
  /** Executables on the fake PATH, by name. */
  readonly executables?: Readonly<Record<string, string>>;
  readonly runProcess?: CliDependencies['runProcess'];
  readonly stdin?: string;
  readonly stdoutIsTTY?: boolean;
  readonly hostname?: string;
}

/**
 * Dependencies with a fixed clock, recorded sleeps (no real waiting), a recording native CLI,
 * and real fetch (tests talk to loopback stubs only).
 */
export function createFakeDependencies(options: FakeOptions = {}): FakeDependencies {
  const nativeRuns: NativeRun[] = [];
  const sleeps: number[] = [];
  const processRuns: { file: string; args: readonly string[] }[] = [];
  const executables = options.executables ?? {};
  return {
    env: options.env ?? {},
    fetch: globalThis.fetch,
    now: () => Date.parse('2030-01-01T00:00:00Z'),
    sleep: (ms) => {
      sleeps.push(ms);
      return Promise.resolve();
    },
    hostname: () => options.hostname ?? 'workstation.local',
    homeDir: '/nonexistent-home',
    stdoutIsTTY: options.stdoutIsTTY ?? false,
    stderrIsTTY: false,
    readStdin: () => Promise.resolve(Buffer.from(options.stdin ?? '')),
    runProcess: (file, args, processOptions) => {
      processRuns.push({ file, args });
      if (options.runProcess !== undefined) return options.runProcess(file, args, processOptions);
      return Promise.resolve<ProcessOutput>({
        code: 1,
        stdout: new Uint8Array(),
        stderr: new Uint8Array(),
      });
    },
    execInherited: (file, args, env) => {
      nativeRuns.push({ file, args, env });
      return Promise.resolve(options.nativeExitCode ?? 0);
    },
    findExecutable: async (name, _env, accept) => {
      const path = executables[name];
      if (path === undefined) return undefined;
      if (accept !== undefined && !(await accept(path))) return undefined;
      return path;
    },
    selfPath: undefined,
    isRelayShim: () => Promise.resolve(false),
    nativeRuns,
    sleeps,
    processRuns,
  };
}

/** Runs `relay <argv>` in-process with captured streams. */
export async function runCli(argv: readonly string[], deps: CliDependencies) {
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  const out: Buffer[] = [];
  const err: Buffer[] = [];
  stdout.on('data', (chunk: Buffer) => out.push(chunk));
  stderr.on('data', (chunk: Buffer) => err.push(chunk));
  const code = await createCli().run([...argv], {
    stdin: process.stdin,
    stdout,
    stderr,
    env: {},
    colorDepth: 1,
    deps,
  });
  return {
    code,
    stdout: Buffer.concat(out).toString('utf8'),
    stdoutBytes: Buffer.concat(out),
    stderr: Buffer.concat(err).toString('utf8'),
  };
}

/** A minimal valid relay envelope around `body`. */
export function envelopeOf(
  body: unknown,
  options: { status?: number; headers?: Record<string, string>; routeKind?: string } = {},
) {
  return {
    status: options.status ?? 200,
    headers: { 'content-type': 'application/json; charset=utf-8', ...options.headers },
    body,
    body_encoding: 'json',
    identity: null,
    relay: {
      pool: 'team',
      request_id: 'req-1',
      cacheable: true,
      cache: 'miss',
      stale_ok: false,
      route_kind: options.routeKind ?? 'repo_view',
    },
  };
}

/** A relay error body of DESIGN.md §3. */
export function errorOf(code: string, reason?: string) {
  return {
    error: {
      code,
      message: 'generic',
      ...(reason === undefined ? {} : { reason }),
      request_id: 'req-err',
    },
  };
}
