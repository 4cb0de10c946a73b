import { z } from 'zod';
import { lazySchema } from './lazy-schema.js';
import {
  getForgeLoginSchema,
  getHttpUrlSchema,
  getPoolIdSchema,
  getSemverSchema,
} from './common-schemas.js';
import { DISCOVERY_VERSION } from './limits.js';

/** The path of the discovery document. */
export const DISCOVERY_PATH = '/.well-known/relay';

/** Returns {@link discoveryDocumentSchema}, built on the first call (the same instance after). */
export const getDiscoveryDocumentSchema = /* @__PURE__ */ lazySchema(() =>
  z.strictObject({
    service: z.literal('relay'),
    version: z.literal(DISCOVERY_VERSION),
    api_base: getHttpUrlSchema(),
    app_base: getHttpUrlSchema(),
    default_pool: getPoolIdSchema(),
    allowed_org: z.union([getForgeLoginSchema(), z.literal('')]),
    auth: z.strictObject({ cli_forge_token: z.boolean(), web_login: z.boolean() }),
    min_cli_version: getSemverSchema(),
  }),
);

/**
 * The discovery document served at GET /.well-known/relay.
 * Built at import; a bundle that reads only {@link getDiscoveryDocumentSchema} builds it on first use.
 */
export const discoveryDocumentSchema = /* @__PURE__ */ getDiscoveryDocumentSchema();

/** A discovery document. */
export type DiscoveryDocument = z.infer<typeof discoveryDocumentSchema>;
