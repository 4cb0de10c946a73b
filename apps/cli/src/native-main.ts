import { reportCliError } from './report-cli-error.js';

/**
 * `relay native <gh argv>` (and `gh <argv>` through the install-shim symlink) without clipanion:
 * `main.ts` calls it when the first argument is `native`, so that a read does not load and build
 * the whole command table. clipanion would select the same command for every such argv
 * (`NativeCommand` and `NativeApiCommand` take their arguments as proxies: no option, `--help`
 * included, is ever parsed under `native`; `relay native api …` is `NativeApiCommand`), and this
 * runs it as clipanion does: the exit code in `process.exitCode`, an expected failure as one
 * stderr line (`reportCliError`), any other error printed by clipanion's own formatter on stdout
 * with exit 1 (the command table is loaded only then). Tests through the binary hold the output
 * equal to the clipanion run's (test/native-entry.test.ts).
 */
export async function runNativeMain(args: readonly string[], selfPath: string | undefined) {
  const { createNodeDependencies } = await import('./node-dependencies.js');
  const deps = createNodeDependencies({ selfPath });
  const output = { stdout: process.stdout, stderr: process.stderr };
  try {
    process.exitCode = await reportCliError(deps, output.stderr, async () => {
      if (args[0] === 'api') {
        const { runNativeApi } = await import('./native-api-runner.js');
        return runNativeApi(deps, output, args.slice(1));
      }
      const { dispatchNative } = await import('./native/native-dispatcher.js');
      return dispatchNative(deps, output, args);
    });
  } catch (error) {
    const [{ createCli }, { helpColors }] = await Promise.all([
      import('./create-cli.js'),
      import('./terminal-style.js'),
    ]);
    const colored = helpColors(process.env, process.stdout.isTTY);
    // An unexpected failure is reported on stderr: stdout carries gh's bytes only.
    output.stderr.write(createCli({ colors: colored }).error(error, { colored }));
    process.exitCode = 1;
  }
}
