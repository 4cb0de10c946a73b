import packageJson from '../package.json' with { type: 'json' };

/** The version of relay-server. */
export const SERVER_VERSION: string = packageJson.version;

/** The oldest `relay` CLI version this server supports (discovery `min_cli_version`). */
export const MIN_CLI_VERSION = '0.1.0';
