import { z } from 'zod';
import { forgeLoginSchema, httpUrlSchema, poolIdSchema, semverSchema } from './common-schemas.js';
import { DISCOVERY_VERSION } from './limits.js';

/** The path of the discovery document. */
export const DISCOVERY_PATH = '/.well-known/relay';

/** The discovery document served at GET /.well-known/relay. */
export const discoveryDocumentSchema = z.strictObject({
  service: z.literal('relay'),
  version: z.literal(DISCOVERY_VERSION),
  api_base: httpUrlSchema,
  app_base: httpUrlSchema,
  default_pool: poolIdSchema,
  allowed_org: z.union([forgeLoginSchema, z.literal('')]),
  auth: z.strictObject({ cli_forge_token: z.boolean(), web_login: z.boolean() }),
  min_cli_version: semverSchema,
});

/** A discovery document. */
export type DiscoveryDocument = z.infer<typeof discoveryDocumentSchema>;
