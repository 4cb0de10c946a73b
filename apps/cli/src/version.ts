import packageJson from '../package.json' with { type: 'json' };

/** The version of the `relay` CLI. */
export const CLI_VERSION: string = packageJson.version;
