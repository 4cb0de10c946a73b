#!/usr/bin/env node
// Builds relay-server's single executable (Node's SEA) from an installed @relay/server artifact:
//
//   node deploy/sea/build-sea.mjs --package <dir> --out <file>
//
// <dir> is the package as npm installed it from the packed tarball (…/node_modules/@relay/server,
// with better-sqlite3 resolvable from it). The executable is the Node binary that runs this
// script (Node 24, the official build: it carries the SEA fuse) with a blob injected by postject
// (pinned below, fetched from the npm registry by npx). Its assets: the package's package.json
// and dist/ (without source maps and declarations), better-sqlite3's package.json, LICENSE, lib/
// and the prebuilt addon of this platform; sea-launcher.cjs unpacks them and starts dist/main.js
// (deploy/README.md says why).
import { execFileSync, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  copyFileSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';

const POSTJECT = 'postject@1.0.0-alpha.6';
const SEA_FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2';
const here = dirname(new URL(import.meta.url).pathname);

const { values } = parseArgs({
  options: { package: { type: 'string' }, out: { type: 'string' } },
});
if (values.package === undefined || values.out === undefined) {
  process.stderr.write('usage: build-sea.mjs --package <installed @relay/server> --out <file>\n');
  process.exit(2);
}
if (Number(process.versions.node.split('.')[0]) < 24) {
  process.stderr.write(`build-sea.mjs: needs Node 24 (this is ${process.version})\n`);
  process.exit(2);
}
const pkgDir = resolve(values.package);
const out = resolve(values.out);

function listFiles(dir) {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

// better-sqlite3 as the server's own resolution finds it; the addon of this platform only.
const sqliteDir = dirname(
  createRequire(join(pkgDir, 'package.json')).resolve('better-sqlite3/package.json'),
);
const musl = /\/ld-musl-[^/\s]*\.so/.test(readFileSync('/proc/self/maps', 'latin1'));
const target = `${musl ? 'linuxmusl' : process.platform}-${process.arch}`;
const addon = join(sqliteDir, 'prebuilds', `${target}.node`);
statSync(addon);

/** @type {{ source: string, path: string }[]} */
const payload = [
  { source: join(pkgDir, 'package.json'), path: 'package.json' },
  ...listFiles(join(pkgDir, 'dist'))
    .filter((file) => !/\.(map|d\.ts)$/.test(file))
    .map((file) => ({ source: file, path: relative(pkgDir, file) })),
  ...[
    'package.json',
    'LICENSE',
    ...listFiles(join(sqliteDir, 'lib')).map((f) => relative(sqliteDir, f)),
  ]
    .concat(relative(sqliteDir, addon))
    .map((file) => ({
      source: join(sqliteDir, file),
      path: join('node_modules/better-sqlite3', file),
    })),
];

const digest = createHash('sha256');
for (const file of payload) {
  digest.update(file.path).update('\0').update(readFileSync(file.source)).update('\0');
}
const files = payload.map((file, index) => ({
  asset: `file-${String(index)}`,
  path: file.path,
  mode: file.path === 'dist/main.js' ? 0o700 : 0o600,
}));

const work = mkdtempSync(join(tmpdir(), 'relay-sea-'));
try {
  const manifestPath = join(work, 'manifest.json');
  writeFileSync(
    manifestPath,
    JSON.stringify({ digest: digest.digest('hex').slice(0, 32), main: 'dist/main.js', files }),
  );
  const blob = join(work, 'sea-prep.blob');
  const config = {
    main: join(here, 'sea-launcher.cjs'),
    output: blob,
    disableExperimentalSEAWarning: true,
    useSnapshot: false,
    useCodeCache: false,
    // What the relay-server bin's #! line passes (apps/server/README.md, "Memory").
    execArgv: ['--max-semi-space-size=8'],
    assets: Object.fromEntries([
      ['manifest.json', manifestPath],
      ...payload.map((file, index) => [files[index].asset, file.source]),
    ]),
  };
  const configPath = join(work, 'sea-config.json');
  writeFileSync(configPath, JSON.stringify(config, null, 2));
  execFileSync(process.execPath, ['--experimental-sea-config', configPath], { stdio: 'inherit' });

  rmSync(out, { force: true });
  copyFileSync(process.execPath, out);
  chmodSync(out, 0o755);
  // postject warns about ELF note sections it does not know on every run: shown on failure only.
  const injection = spawnSync(
    'npx',
    ['--yes', POSTJECT, out, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', SEA_FUSE],
    { encoding: 'utf8' },
  );
  if (injection.status !== 0) {
    process.stderr.write(`${injection.stdout}${injection.stderr}`);
    throw new Error(`postject failed (exit ${String(injection.status)})`);
  }
  process.stdout.write(
    `${out}: ${String(statSync(out).size)} bytes, ${String(files.length)} files embedded\n`,
  );
} finally {
  rmSync(work, { recursive: true, force: true });
}
