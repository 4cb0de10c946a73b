import type { RelayFetch } from './relay-fetch.js';

/** The environment the CLI reads: names to values, unset names absent. */
export type CliEnv = Readonly<Record<string, string | undefined>>;

/** What a finished child process produced (captured streams). */
export interface ProcessOutput {
  /** Exit code; `null` when a signal ended it. */
  readonly code: number | null;
  readonly stdout: Uint8Array;
  readonly stderr: Uint8Array;
}

/** Options of {@link CliDependencies.runProcess}. */
export interface RunProcessOptions {
  /** Bytes written to the child's stdin, then closed. */
  readonly input?: Uint8Array;
  /** The child's whole environment. */
  readonly env: CliEnv;
}

/** Options of {@link CliDependencies.execInherited}. */
export interface ExecInheritedOptions {
  /** A file the child reads as its standard input instead of the inherited one. */
  readonly stdinFile?: string;
}

/**
 * Every effect the commands use, injected so that tests need no real time, network, files
 * outside a temp directory, or processes. `main.ts` builds the real ones
 * ({@link createNodeDependencies}).
 */
export interface CliDependencies {
  /** The process environment. */
  readonly env: CliEnv;
  /** HTTP client (the subset of WHATWG fetch the CLI uses; `globalThis.fetch` fits). */
  readonly fetch: RelayFetch;
  /** Epoch milliseconds. */
  readonly now: () => number;
  /** Waits between retries. */
  readonly sleep: (ms: number) => Promise<void>;
  /** The local host name (the default client name). */
  readonly hostname: () => string;
  /** The user's home directory (the config directory's last fallback). */
  readonly homeDir: string;
  /** Whether stdout is a terminal. */
  readonly stdoutIsTTY: boolean;
  /** Whether stderr is a terminal. */
  readonly stderrIsTTY: boolean;
  /**
   * Reads standard input (`--file -`, `--body-file -`): the whole stream, or, with `maxBytes`,
   * stops as soon as more than `maxBytes` bytes have arrived (the result is then longer than
   * `maxBytes`, which callers refuse) so that a huge input never sits in memory.
   */
  readonly readStdin: (maxBytes?: number) => Promise<Uint8Array>;
  /** Runs a program with captured output (jq, `gh auth token`). Rejects when it cannot start. */
  readonly runProcess: (
    file: string,
    args: readonly string[],
    options: RunProcessOptions,
  ) => Promise<ProcessOutput>;
  /**
   * Runs the native CLI with inherited stdio and resolves its exit code (a signal maps to
   * 128 + its number). Rejects when it cannot start.
   */
  readonly execInherited: (
    file: string,
    args: readonly string[],
    env: CliEnv,
    options?: ExecInheritedOptions,
  ) => Promise<number>;
  /** The first executable named `name` on `PATH` that `accept` accepts. */
  readonly findExecutable: (
    name: string,
    env: CliEnv,
    accept?: (path: string) => Promise<boolean>,
  ) => Promise<string | undefined>;
  /** The path the running `relay` script was started by (`process.argv[1]`), if any. */
  readonly selfPath: string | undefined;
  /** Whether `path` is this relay shim itself (never run as the native CLI). */
  readonly isRelayShim: (path: string) => Promise<boolean>;
}
