import { generateKeyPairSync, randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CleanupStack } from './cleanup-stack.ts';
import { createRelayCliRunner } from './relay-cli-runner.ts';
import type { RelayCliRunner } from './relay-cli-runner.ts';
import { startServerProcess } from './server-process.ts';
import type { ServerProcess } from './server-process.ts';

// forge-sim is private to the workspace and not a dependency of the root: its types come from
// its source, its code from its build (loaded at run time below).
import type * as ForgeSimModule from '../../packages/forge-sim/src/index.ts';
import type { DemoWorldIds, ForgeSim } from '../../packages/forge-sim/src/index.ts';

/** The names the demo gives to what it registers. */
export const DEMO_NAMES = {
  pool: 'demo',
  org: 'acme',
  publicRepo: 'acme/widgets',
  privateRepo: 'acme/secret-sauce',
  /** The org member who logs in through the CLI. */
  caller: 'alice',
  callerClient: 'demo-laptop',
  /** The two pooled PATs: bot accounts, one scoped to acme, one broad (`*`). */
  pats: [
    { id: 'reader-1', login: 'acme-reader-1', secretRef: 'READER_1', scope: 'acme' },
    { id: 'reader-2', login: 'acme-reader-2', secretRef: 'READER_2', scope: '*' },
  ],
  app: {
    id: 'widgets-app',
    appId: 4242,
    installationId: 77,
    login: 'relay-demo',
    /** Above the PATs' default 100: the app is preferred for acme/widgets when all are fresh. */
    weight: 150,
    slug: 'relay-demo',
    secretRef: 'DEMO_APP_KEY',
  },
} as const;

/** Where the demo's temporary files are. All of them go when the demo stops. */
export interface DemoPaths {
  /** The temporary directory holding everything below. */
  readonly root: string;
  /** RELAY_CONFIG_DIR of the demo caller: auth.json after the login. */
  readonly configDir: string;
  /** RELAY_SECRETS_DIR of relay-server: the pooled PATs and the app's private key. */
  readonly secretsDir: string;
  /** The SQLite database of relay-server. */
  readonly database: string;
  /** A file (0600) holding the admin token, so that it is never printed. */
  readonly adminTokenFile: string;
  /** A file (0600) holding the caller's simulated GitHub token (their `GH_TOKEN`). */
  readonly callerForgeTokenFile: string;
}

/** The running demo: the simulated GitHub, relay-server, and a runner of the built CLI. */
export interface DemoStack {
  readonly sim: ForgeSim;
  readonly ids: DemoWorldIds;
  readonly server: ServerProcess;
  readonly paths: DemoPaths;
  /** The relay CLI with the demo caller's environment (config dir, no fallback, no colour). */
  readonly cli: RelayCliRunner;
  /** What the tour calls each simulated PAT (request-log label → name). */
  readonly credentialNames: ReadonlyMap<string, string>;
  /** Extra environment of a login: the caller's simulated GitHub token. */
  readonly loginEnv: Readonly<Record<string, string>>;
  /** Extra environment of admin commands: RELAY_URL and RELAY_ADMIN_TOKEN. */
  readonly adminEnv: Readonly<Record<string, string>>;
}

/** Where the built pieces are. */
export interface DemoBuild {
  /** `packages/forge-sim/dist/index.js` */
  readonly forgeSimModule: string;
  /** `apps/server/dist/main.js` */
  readonly serverMain: string;
  /** `apps/cli/dist/main.js` */
  readonly cliBin: string;
}

/** The built pieces of a checkout at `root`. */
export function resolveDemoBuild(root: string): DemoBuild {
  return {
    forgeSimModule: join(root, 'packages/forge-sim/dist/index.js'),
    serverMain: join(root, 'apps/server/dist/main.js'),
    cliBin: join(root, 'apps/cli/dist/main.js'),
  };
}

function writeSecretFile(path: string, value: string): void {
  writeFileSync(path, `${value}\n`, { mode: 0o600 });
}

/**
 * Starts the demo stack: a temporary directory, @relay/forge-sim with the demo world plus two
 * reader bot accounts and an installed GitHub App (RSA key pair made here; the public key is
 * registered with the simulator, the PKCS#8 private key written as a secret binding), and
 * relay-server on a loopback ephemeral port with a temporary SQLite file and an admin token.
 * Each piece registers its stop action on `cleanup` as soon as it exists, so a failure half way
 * leaves nothing behind once the caller runs the stack.
 *
 * @param build - where the built pieces are
 * @param cleanup - receives a stop action for each piece
 * @param baseEnv - PATH (and nothing else) is passed on to the CLI
 * @throws Error when a piece fails to start
 */
export async function startDemoStack(
  build: DemoBuild,
  cleanup: CleanupStack,
  baseEnv: Readonly<Record<string, string | undefined>>,
): Promise<DemoStack> {
  const root = mkdtempSync(join(tmpdir(), 'relay-demo-'));
  cleanup.push('temporary directory', () => {
    rmSync(root, { recursive: true, force: true });
  });
  const paths: DemoPaths = {
    root,
    configDir: join(root, 'config'),
    secretsDir: join(root, 'secrets'),
    database: join(root, 'relay.db'),
    adminTokenFile: join(root, 'admin-token'),
    callerForgeTokenFile: join(root, 'gh-token'),
  };
  mkdirSync(paths.secretsDir, { mode: 0o700 });
  mkdirSync(join(root, 'home'), { mode: 0o700 });

  const forgeSim = (await import(
    pathToFileURL(build.forgeSimModule).href
  )) as typeof ForgeSimModule;
  const sim = await forgeSim.createForgeSim();
  cleanup.push('simulated GitHub', () => sim.close());
  const ids = forgeSim.seedDemoWorld(sim.world);

  const credentialNames = new Map<string, string>();
  for (const pat of DEMO_NAMES.pats) {
    sim.world.addUser({ login: pat.login, name: `Reader bot ${pat.id}` });
    const { id, token } = sim.tokens.addPat({ login: pat.login, scopes: ['public_repo'] });
    credentialNames.set(id, `pooled PAT ${pat.id}`);
    writeSecretFile(join(paths.secretsDir, pat.secretRef), token);
  }
  const { app } = DEMO_NAMES;
  const keys = generateKeyPairSync('rsa', {
    modulusLength: 2048,
    publicKeyEncoding: { type: 'spki', format: 'pem' },
    privateKeyEncoding: { type: 'pkcs8', format: 'pem' },
  });
  sim.apps.addApp({ id: app.appId, publicKeyPem: keys.publicKey, slug: app.slug });
  sim.apps.addInstallation({
    id: app.installationId,
    appId: app.appId,
    account: DEMO_NAMES.org,
    repositories: 'all',
  });
  writeSecretFile(join(paths.secretsDir, app.secretRef), keys.privateKey);

  const adminToken = `demo-admin-${randomBytes(24).toString('base64url')}`;
  writeSecretFile(paths.adminTokenFile, adminToken);
  const callerPat = sim.tokens.addPat({ login: DEMO_NAMES.caller });
  credentialNames.set(callerPat.id, `${DEMO_NAMES.caller}'s own token`);
  const callerForgeToken = callerPat.token;
  writeSecretFile(paths.callerForgeTokenFile, callerForgeToken);

  const server = await startServerProcess({
    mainPath: build.serverMain,
    env: {
      RELAY_HOST: '127.0.0.1',
      RELAY_PORT: '0',
      RELAY_DATABASE: paths.database,
      RELAY_ADMIN_TOKEN: adminToken,
      RELAY_FORGE_API_URL: sim.urls.api,
      RELAY_FORGE_WEB_URL: sim.urls.web,
      RELAY_FORGE_RAW_URL: sim.urls.raw,
      RELAY_FORGE_LOG_HOSTS: new URL(sim.urls.log).hostname,
      RELAY_SECRETS_DIR: paths.secretsDir,
      RELAY_FORGE_APP_ID: String(app.appId),
      ALLOWED_FORGE_ORG: DEMO_NAMES.org,
      DEFAULT_ALLOWED_OWNERS: DEMO_NAMES.org,
      DEFAULT_LOGIN_POOL: DEMO_NAMES.pool,
    },
    onSpawn: (stop) => {
      cleanup.push('relay-server', stop);
    },
  });

  const cli = createRelayCliRunner({
    binPath: build.cliBin,
    env: {
      PATH: baseEnv.PATH ?? '',
      HOME: join(root, 'home'),
      RELAY_CONFIG_DIR: paths.configDir,
      RELAY_NO_FALLBACK: '1',
      RELAY_RETRIES: '0',
      NO_COLOR: '1',
    },
  });
  return {
    sim,
    ids,
    server,
    paths,
    cli,
    credentialNames,
    loginEnv: { GH_TOKEN: callerForgeToken },
    adminEnv: { RELAY_URL: server.url, RELAY_ADMIN_TOKEN: adminToken },
  };
}
