#!/usr/bin/env node
// Tries every deploy the project promises from its artifact, not from the monorepo
// (deploy/README.md), and fails on the first one that does not work:
//
//   1. builds the CLI, the server and forge-sim (turbo; cached after `pnpm check`), and packs
//      apps/cli and apps/server with `pnpm pack`;
//   2. checks both packed manifests: no `workspace:` specifier, no @relay/* runtime dependency,
//      the bin inside the tarball, and every package the packed dist/ imports declared;
//   3. CLI: `npm install -g --offline --prefix <empty dir> <tarball>`; `relay --version` and
//      `relay --help`;
//   4. server: `npm install --prefix <empty dir> <tarball>` (better-sqlite3 from the npm registry,
//      with its prebuilt addon), `npx relay-server` on its embedded defaults (but an ephemeral
//      port): discovery answers, relay.db is created in the working directory, SIGTERM stops it
//      with exit code 0;
//   5. single executable: deploy/sea/build-sea.mjs from the installed server, started with no
//      node on PATH against forge-sim: discovery answers, then the installed CLI logs in and
//      `relay native api repos/acme/widgets` is served by it; SIGTERM stops it;
//   6. deploy/relay-server.service passes `systemd-analyze verify` with no warning (ExecStart
//      pointed at the installed bin), and deploy/relay-server.env.example names exactly the
//      variables the server reads.
//
// Run it on Node 24 from the repository root: `npx node scripts/deploy-check.mjs` (.ci/run does).
// Every process it starts is stopped and its temporary directory removed, on failure too.
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { builtinModules } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const nodeBinDir = dirname(process.execPath);
const bin = (name) => join(root, 'node_modules/.bin', name);
const started = Date.now();

if (Number(process.versions.node.split('.')[0]) < 24) {
  process.stderr.write(`deploy-check: needs Node 24 (run \`npx node scripts/deploy-check.mjs\`)\n`);
  process.exit(2);
}

/** Children still running: process group ids, killed by the exit handler. */
const running = new Set();
const work = mkdtempSync(join(tmpdir(), 'relay-deploy-check-'));
let closeForgeSim = () => undefined;

process.on('exit', () => {
  for (const pgid of running) {
    try {
      process.kill(-pgid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  closeForgeSim();
  // A killed child may still be closing its files: retry on ENOTEMPTY and EBUSY.
  try {
    rmSync(work, { recursive: true, force: true, maxRetries: 10, retryDelay: 100 });
  } catch (error) {
    process.stderr.write(`deploy-check: could not remove ${work}: ${String(error)}\n`);
  }
});
for (const signal of ['SIGINT', 'SIGTERM']) {
  process.once(signal, () => {
    process.stderr.write(`deploy-check: ${signal}, stopping\n`);
    process.exit(130);
  });
}

class CheckFailure extends Error {}

function check(condition, message) {
  if (!condition) throw new CheckFailure(message);
}

function step(title) {
  const seconds = ((Date.now() - started) / 1000).toFixed(1);
  process.stdout.write(`deploy-check [${seconds}s] ${title}\n`);
}

/** The environment of every child: Node 24 first on PATH, no inherited RELAY_* variable. */
function baseEnv(extra = {}) {
  const env = Object.fromEntries(
    Object.entries(process.env).filter(([name]) => !/^(RELAY_|GH_|GITHUB_)/.test(name)),
  );
  return {
    ...env,
    PATH: `${nodeBinDir}:${process.env.PATH ?? ''}`,
    npm_config_update_notifier: 'false',
    npm_config_fund: 'false',
    npm_config_audit: 'false',
    TURBO_TELEMETRY_DISABLED: '1',
    NO_COLOR: '1',
    ...extra,
  };
}

/** Runs a command to completion; fails with its output unless it exits 0. */
function run(command, args, options = {}) {
  const result = spawnSync(command, args, {
    cwd: options.cwd ?? root,
    env: options.env ?? baseEnv(),
    encoding: 'utf8',
    timeout: options.timeoutMs ?? 120_000,
  });
  if (result.status !== 0) {
    throw new CheckFailure(
      `${command} ${args.join(' ')} exited ${String(result.status ?? result.signal)}\n` +
        `${result.stdout}${result.stderr}`,
    );
  }
  return result;
}

/**
 * Runs a command to completion without blocking the event loop (forge-sim answers from this
 * process meanwhile); fails with its output unless it exits 0.
 */
async function runAsync(command, args, options) {
  const child = start(command, args, { cwd: root, ...options });
  const timer = setTimeout(() => void child.stop(1_000), 60_000);
  const { code, signal } = await child.exited;
  clearTimeout(timer);
  if (code !== 0) {
    throw new CheckFailure(
      `${command} ${args.join(' ')} exited ${String(code ?? signal)}\n${child.output()}`,
    );
  }
  return child.stdout();
}

/** Starts a long-running process in its own process group, collecting its output. */
function start(command, args, options) {
  const child = spawn(command, args, {
    cwd: options.cwd,
    env: options.env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  running.add(child.pid);
  let output = '';
  let stdout = '';
  child.stdout.on('data', (chunk) => {
    output += chunk;
    stdout += chunk;
  });
  child.stderr.on('data', (chunk) => (output += chunk));
  // 'close': the process has exited and every holder of its output pipes too (the server that
  // npx starts writes to the same pipes), so the whole group is done.
  const exited = new Promise((resolveExit) => {
    child.on('close', (code, signal) => {
      running.delete(child.pid);
      resolveExit({ code, signal });
    });
  });
  return {
    pid: child.pid,
    output: () => output,
    stdout: () => stdout,
    exited,
    /** SIGTERM to the group; its exit, or SIGKILL after `ms`. */
    async stop(ms = 15_000) {
      try {
        process.kill(-child.pid, 'SIGTERM');
      } catch {
        // already gone
      }
      const timer = setTimeout(() => {
        try {
          process.kill(-child.pid, 'SIGKILL');
        } catch {
          // already gone
        }
      }, ms);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
  };
}

/** The names of a process's threads (Node names a worker thread `WorkerThread`). */
function threadNames(pid) {
  const tasks = join('/proc', String(pid), 'task');
  return readdirSync(tasks).map((task) => readFileSync(join(tasks, task, 'comm'), 'utf8').trim());
}

/** Waits for relay-server's `listening on <url>` line. */
async function listeningUrl(server, label) {
  const deadline = Date.now() + 30_000;
  for (;;) {
    const match = /relay-server listening on (http:\/\/[^"\s]+)/.exec(server.output());
    if (match) return match[1];
    const exited = await Promise.race([
      server.exited,
      new Promise((resolveWait) => setTimeout(() => resolveWait(undefined), 100)),
    ]);
    check(exited === undefined, `${label} exited before listening:\n${server.output()}`);
    check(Date.now() < deadline, `${label} did not listen within 30 s:\n${server.output()}`);
  }
}

async function checkDiscovery(url, label) {
  const response = await fetch(`${url}/.well-known/relay`);
  check(response.status === 200, `${label}: discovery answered ${String(response.status)}`);
  const body = await response.json();
  check(
    body.service === 'relay' && body.version === 1 && body.api_base === url,
    `${label}: unexpected discovery document ${JSON.stringify(body)}`,
  );
}

/**
 * SIGTERM to the process group; relay-server must log its clean stop. `viaNpx`: the exit status
 * is npx's, which dies of the signal itself (npm 11 does not forward SIGTERM to the bin it runs,
 * which is why the group is signalled), so only relay-server's own last line tells.
 */
async function stopCleanly(server, label, { viaNpx = false } = {}) {
  const { code, signal } = await server.stop();
  check(
    (viaNpx || code === 0) && /relay-server stopped/.test(server.output()),
    `${label}: SIGTERM ended it with ${String(code ?? signal)}:\n${server.output()}`,
  );
}

/**
 * Packages a bundled dependency loads only on request, inside its own error handling, and that
 * the artifacts deliberately leave out: pg's native binding (libpq), required only when
 * NODE_PG_FORCE_NATIVE is set or `pg.native` is read, which relay-server does not do; the Redis
 * client's `@node-rs/xxhash`, imported only by its `digest` helper, which relay-server never calls.
 */
const OPTIONAL_IMPORTS = new Set(['pg-native', '@node-rs/xxhash']);

/**
 * Bare package names that the JavaScript files under `dir` load: the static imports and
 * re-exports at the start of a line (as the bundler emits them), string-literal `import()`, and
 * `__require("…")` (the bundler's require for CommonJS code). Text inside bundled comments and
 * strings (documentation examples) does not count.
 */
function importedPackages(dir) {
  const builtins = new Set(builtinModules);
  const patterns = [
    /^(?:import|export)\s[^;]*?\bfrom\s*"([^"]+)";?$/gm,
    /^import\s*"([^"]+)";?$/gm,
    /\bimport\(\s*"([^"]+)"\s*\)/g,
    /\b__require\(\s*"([^"]+)"\s*\)/g,
  ];
  const names = new Set();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile() || !/\.(m?js|cjs)$/.test(entry.name)) continue;
    const text = readFileSync(join(entry.parentPath, entry.name), 'utf8');
    for (const pattern of patterns) {
      for (const [, spec] of text.matchAll(pattern)) {
        if (spec.startsWith('.') || spec.startsWith('node:')) continue;
        if (builtins.has(spec.split('/')[0])) continue;
        const parts = spec.split('/');
        names.add(spec.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0]);
      }
    }
  }
  return names;
}

/** Packs an app with pnpm (which rewrites workspace: specifiers) and checks the tarball. */
function packApp(app) {
  const appDir = join(root, 'apps', app);
  const before = new Set(readdirSync(work));
  run(bin('pnpm'), ['pack', '--pack-destination', work], { cwd: appDir });
  const tarball = readdirSync(work).find((name) => name.endsWith('.tgz') && !before.has(name));
  check(tarball !== undefined, `pnpm pack of apps/${app} wrote no tarball`);
  const path = join(work, tarball);
  const unpacked = join(work, `unpacked-${app}`);
  mkdirSync(unpacked);
  run('tar', ['-xzf', path, '-C', unpacked]);
  const pkgDir = join(unpacked, 'package');
  const text = readFileSync(join(pkgDir, 'package.json'), 'utf8');
  const manifest = JSON.parse(text);
  check(
    !text.includes('workspace:'),
    `apps/${app}: the packed manifest has a workspace: specifier`,
  );
  const runtime = {
    ...manifest.dependencies,
    ...manifest.optionalDependencies,
    ...manifest.peerDependencies,
  };
  const workspaceDeps = Object.keys(runtime).filter((name) => name.startsWith('@relay/'));
  check(
    workspaceDeps.length === 0,
    `apps/${app}: the packed manifest depends on ${workspaceDeps.join(', ')} (on no registry)`,
  );
  for (const target of Object.values(manifest.bin ?? {})) {
    const binText = readFileSync(join(pkgDir, target), 'utf8');
    check(binText.startsWith('#!/usr/bin/env '), `apps/${app}: ${target} has no #! line`);
  }
  const undeclared = [...importedPackages(join(pkgDir, 'dist'))].filter(
    (name) => !(name in runtime) && !OPTIONAL_IMPORTS.has(name),
  );
  check(
    undeclared.length === 0,
    `apps/${app}: dist/ imports ${undeclared.join(', ')}, not in the packed dependencies`,
  );
  return { path, manifest };
}

/** The variables relay-server reads, from its sources (server-config.ts and main.ts). */
function serverVariables() {
  const source = ['server-config.ts', 'main.ts', 'secret-resolver.ts']
    .map((file) => readFileSync(join(root, 'apps/server/src', file), 'utf8'))
    .join('\n');
  const names = new Set();
  for (const [, name] of source.matchAll(/(?:value|integer)\(\s*'([A-Z][A-Z0-9_]*)'/g)) {
    names.add(name);
  }
  for (const [, name] of source.matchAll(/env\.([A-Z][A-Z0-9_]*)/g)) names.add(name);
  // secret-resolver.ts: RELAY_SECRET_<binding>.
  if (source.includes('`RELAY_SECRET_${')) names.add('RELAY_SECRET_*');
  return names;
}

function checkDeployFiles(serverBin) {
  const example = readFileSync(join(root, 'deploy/relay-server.env.example'), 'utf8');
  const listed = new Set();
  for (const [, name] of example.matchAll(/^#?([A-Z][A-Z0-9_]*)=/gm)) {
    listed.add(name.startsWith('RELAY_SECRET_') ? 'RELAY_SECRET_*' : name);
  }
  const read = serverVariables();
  read.add('RELAY_SEA_CACHE_DIR'); // the single executable's launcher (deploy/sea)
  const missing = [...read].filter((name) => !listed.has(name));
  const unknown = [...listed].filter((name) => !read.has(name));
  check(
    missing.length === 0 && unknown.length === 0,
    `deploy/relay-server.env.example: missing ${missing.join(', ') || 'none'}; ` +
      `not read by the server ${unknown.join(', ') || 'none'} ` +
      '(each variable the server reads is listed there, commented out at its default)',
  );

  const analyze = spawnSync('systemd-analyze', ['--version'], { encoding: 'utf8' });
  if (analyze.status !== 0) {
    step('systemd-analyze is not installed: the unit file is not verified');
    return;
  }
  const unit = readFileSync(join(root, 'deploy/relay-server.service'), 'utf8');
  check(
    unit.includes('\nExecStart=/opt/relay-server/bin/relay-server\n'),
    'deploy/relay-server.service: ExecStart is not /opt/relay-server/bin/relay-server',
  );
  const unitDir = join(work, 'unit');
  mkdirSync(unitDir);
  const unitPath = join(unitDir, 'relay-server.service');
  // The unit as installed, with ExecStart at the bin this check installed.
  spawnSync('sh', ['-c', 'cat > "$1"', 'sh', unitPath], {
    input: unit.replace('/opt/relay-server/bin/relay-server', serverBin),
  });
  const verify = spawnSync('systemd-analyze', ['verify', unitPath], { encoding: 'utf8' });
  const said = `${verify.stdout}${verify.stderr}`.trim();
  check(
    verify.status === 0 && said === '',
    `systemd-analyze verify deploy/relay-server.service:\n${said}`,
  );
}

async function main() {
  step('build (turbo: @relay/cli, @relay/server, @relay/forge-sim)');
  run(
    bin('turbo'),
    [
      'run',
      'build',
      '--filter=@relay/cli',
      '--filter=@relay/server',
      '--filter=@relay/forge-sim',
      '--output-logs=errors-only',
    ],
    { timeoutMs: 300_000 },
  );

  step('pack apps/cli and apps/server (pnpm pack), check the packed manifests');
  const cli = packApp('cli');
  const server = packApp('server');

  step('CLI: npm install -g --offline --prefix <empty dir> <tarball>');
  const cliPrefix = join(work, 'cli-prefix');
  run('npm', ['install', '-g', '--offline', '--prefix', cliPrefix, cli.path]);
  const relay = join(cliPrefix, 'bin/relay');
  const version = run(relay, ['--version']).stdout;
  check(
    version.includes(cli.manifest.version),
    `relay --version printed ${JSON.stringify(version)}, not ${cli.manifest.version}`,
  );
  const help = run(relay, ['--help']).stdout;
  check(/\brelay\b/.test(help) && /native/.test(help), `relay --help printed:\n${help}`);

  step('server: npm install --prefix <empty dir> <tarball>, then npx relay-server');
  const serverDir = join(work, 'server-app');
  run('npm', ['install', '--prefer-offline', '--prefix', serverDir, server.path], {
    timeoutMs: 300_000,
  });
  const npxServer = start('npx', ['--no-install', 'relay-server'], {
    cwd: serverDir,
    env: baseEnv({ RELAY_PORT: '0' }),
  });
  const npxUrl = await listeningUrl(npxServer, 'npx relay-server');
  await checkDiscovery(npxUrl, 'npx relay-server');
  check(existsSync(join(serverDir, 'relay.db')), 'npx relay-server: no relay.db in its directory');
  await stopCleanly(npxServer, 'npx relay-server', { viaNpx: true });

  step('single executable: build (deploy/sea/build-sea.mjs)');
  const installed = join(serverDir, 'node_modules/@relay/server');
  const sea = join(work, 'relay-server');
  run(
    process.execPath,
    [join(root, 'deploy/sea/build-sea.mjs'), '--package', installed, '--out', sea],
    {
      timeoutMs: 300_000,
    },
  );

  step(
    'single executable: start against forge-sim with no node on PATH; relay login and relay native api through it',
  );
  const forgeSim = await import(pathToFileURL(join(root, 'packages/forge-sim/dist/index.js')).href);
  const sim = await forgeSim.createForgeSim();
  closeForgeSim = () => void sim.close();
  forgeSim.seedDemoWorld(sim.world);
  const caller = sim.tokens.addPat({ login: 'alice' });
  const adminToken = randomBytes(24).toString('base64url');
  const seaDir = join(work, 'sea-run');
  mkdirSync(join(seaDir, 'home'), { recursive: true });
  const emptyBin = join(seaDir, 'empty-bin');
  mkdirSync(emptyBin);
  const seaServer = start(sea, [], {
    cwd: seaDir,
    env: {
      PATH: emptyBin,
      HOME: join(seaDir, 'home'),
      RELAY_SEA_CACHE_DIR: join(seaDir, 'cache'),
      RELAY_HOST: '127.0.0.1',
      RELAY_PORT: '0',
      RELAY_DATABASE: join(seaDir, 'relay.db'),
      RELAY_ADMIN_TOKEN: adminToken,
      RELAY_FORGE_API_URL: sim.urls.api,
      RELAY_FORGE_WEB_URL: sim.urls.web,
      RELAY_FORGE_RAW_URL: sim.urls.raw,
      RELAY_FORGE_LOG_HOSTS: new URL(sim.urls.log).hostname,
      ALLOWED_FORGE_ORG: 'acme',
      DEFAULT_ALLOWED_OWNERS: 'acme',
    },
  });
  const seaUrl = await listeningUrl(seaServer, 'the single executable');
  await checkDiscovery(seaUrl, 'the single executable');
  const cliEnv = baseEnv({
    HOME: join(seaDir, 'home'),
    RELAY_CONFIG_DIR: join(seaDir, 'relay-config'),
    RELAY_NO_FALLBACK: '1',
    RELAY_RETRIES: '0',
  });
  await runAsync(relay, ['login', seaUrl, '--client', 'deploy-check'], {
    env: { ...cliEnv, GH_TOKEN: caller.token },
  });
  // A policy past MAIN_THREAD_POLICY_COST (apps/server/src/policy/policy-cost.ts) is compiled and
  // checked on the rewrite-check worker only: the read below needs the worker thread, started
  // from the unpacked dist/rewrite-check-worker.js (a failing worker fails the read closed).
  const policy = await fetch(`${seaUrl}/v1/admin/string-rewrites`, {
    method: 'PUT',
    headers: { authorization: `Bearer ${adminToken}`, 'content-type': 'application/json' },
    body: JSON.stringify({
      schema_version: 1,
      expected_revision: 1, // a fresh deployment's empty policy
      rules: ['Q', 'J', 'X', 'K', 'V'].map((letter) => ({
        pattern: `${letter}{1000}`,
        replacement: '',
      })),
    }),
  });
  check(
    policy.status === 200,
    `the single executable: the policy PUT answered ${String(policy.status)}: ${await policy.text()}`,
  );
  check(
    !threadNames(seaServer.pid).includes('WorkerThread'),
    'the single executable: a worker thread before any string-rewrite check',
  );
  const repo = await runAsync(relay, ['native', 'api', 'repos/acme/widgets'], { env: cliEnv });
  check(
    threadNames(seaServer.pid).includes('WorkerThread'),
    'the single executable: the read ran no rewrite-check worker thread',
  );
  check(
    JSON.parse(repo).full_name === 'acme/widgets',
    `relay native api repos/acme/widgets printed:\n${repo}`,
  );
  await stopCleanly(seaServer, 'the single executable');
  await sim.close();
  closeForgeSim = () => undefined;

  step('deploy/: the environment example and the systemd unit');
  checkDeployFiles(join(serverDir, 'node_modules/.bin/relay-server'));

  step('every deploy works from its artifact');
}

main().then(
  () => process.exit(0),
  (error) => {
    process.stderr.write(
      `deploy-check FAILED: ${error instanceof CheckFailure ? error.message : error.stack}\n`,
    );
    process.exit(1);
  },
);
