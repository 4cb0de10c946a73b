/** The `relay` CLI as a library, for tests and embedding. The bin is `main.ts`. */
export { createCli } from './create-cli.js';
export { CLI_VERSION } from './version.js';
