'use strict';
// The main script of relay-server's single executable (Node's SEA, deploy/README.md).
//
// The executable embeds, as SEA assets, the files of the packed @relay/server artifact that run
// it: package.json, dist/*.js, and better-sqlite3 (its JavaScript and the one prebuilt native
// addon of the platform the executable was built on). A native addon can only be loaded from a
// file (dlopen), and the server starts its rewrite-check worker thread from a file, so this
// script writes the files once to a private directory named by their digest, then loads
// dist/main.js from there: the same code as `npx relay-server`, with no node, npm or network.
//
// The directory: RELAY_SEA_CACHE_DIR, else $XDG_CACHE_HOME/relay-server, else
// ~/.cache/relay-server, else <tmpdir>/relay-server-<uid>; created 0700. Files already there are
// compared with the embedded ones at every start and rewritten when they differ.

const { Buffer } = require('node:buffer');
const { getAsset } = require('node:sea');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const process = require('node:process');
const { createRequire } = require('node:module');

/** @typedef {{ asset: string, path: string, mode: number }} PayloadFile */
/** @type {{ digest: string, main: string, files: PayloadFile[] }} */
const manifest = JSON.parse(getAsset('manifest.json', 'utf8'));

function cacheBase() {
  const explicit = process.env.RELAY_SEA_CACHE_DIR;
  if (explicit) return path.resolve(explicit);
  if (process.env.XDG_CACHE_HOME) return path.join(process.env.XDG_CACHE_HOME, 'relay-server');
  const home = os.homedir();
  if (home) return path.join(home, '.cache', 'relay-server');
  return path.join(os.tmpdir(), `relay-server-${String(process.getuid?.() ?? 'user')}`);
}

function assetBytes(file) {
  return Buffer.from(getAsset(file.asset));
}

/** Whether every embedded file is in `dir` with the same bytes. */
function isIntact(dir) {
  for (const file of manifest.files) {
    let bytes;
    try {
      bytes = fs.readFileSync(path.join(dir, file.path));
    } catch {
      return false;
    }
    if (!bytes.equals(assetBytes(file))) return false;
  }
  return true;
}

/** Writes the payload next to `dir`, then renames it into place (concurrent starts are safe). */
function extract(base, dir) {
  fs.mkdirSync(base, { recursive: true, mode: 0o700 });
  const staging = fs.mkdtempSync(path.join(base, `.${manifest.digest}-`));
  try {
    for (const file of manifest.files) {
      const target = path.join(staging, file.path);
      fs.mkdirSync(path.dirname(target), { recursive: true, mode: 0o700 });
      fs.writeFileSync(target, assetBytes(file), { mode: file.mode });
    }
    try {
      fs.renameSync(staging, dir);
    } catch {
      // `dir` exists: a concurrent start placed its copy (keep it when it is whole), or a
      // damaged copy is there (replace it).
      if (isIntact(dir)) return;
      fs.rmSync(dir, { recursive: true, force: true });
      fs.renameSync(staging, dir);
    }
  } finally {
    fs.rmSync(staging, { recursive: true, force: true });
  }
}

function prepare() {
  const base = cacheBase();
  const dir = path.join(base, manifest.digest);
  if (!isIntact(dir)) extract(base, dir);
  return dir;
}

let dir;
try {
  dir = prepare();
} catch (error) {
  const reason = error instanceof Error ? error.message : String(error);
  process.stderr.write(
    `relay-server: cannot unpack the executable's files (set RELAY_SEA_CACHE_DIR to a writable directory): ${reason}\n`,
  );
  process.exit(1);
}
// dist/main.js is an ES module (the package's "type": "module"): require() loads it synchronously.
createRequire(path.join(dir, 'package.json'))(`./${manifest.main}`);
