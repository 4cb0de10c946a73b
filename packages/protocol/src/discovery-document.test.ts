import { describe, expect, it } from 'vitest';
import { discoveryDocumentSchema } from './discovery-document.js';

const valid = {
  service: 'relay',
  version: 1,
  api_base: 'https://relay.example.com',
  app_base: 'https://relay.example.com',
  default_pool: 'default',
  allowed_org: 'octo-org',
  auth: { cli_forge_token: true, web_login: false },
  min_cli_version: '0.1.0',
};

describe('discoveryDocumentSchema', () => {
  it.each([
    ['a complete document', valid],
    ['a loopback http base', { ...valid, api_base: 'http://127.0.0.1:8787' }],
    [
      'no allowed org configured',
      { ...valid, allowed_org: '', auth: { cli_forge_token: false, web_login: false } },
    ],
    ['a pre-release min version', { ...valid, min_cli_version: '1.0.0-rc.1' }],
  ])('accepts %s', (_name, input) => {
    expect(discoveryDocumentSchema.safeParse(input).success).toBe(true);
  });

  it.each([
    ['another service', { ...valid, service: 'proxy' }],
    ['version 2', { ...valid, version: 2 }],
    ['a non-URL api_base', { ...valid, api_base: 'relay.example.com' }],
    ['an ftp api_base', { ...valid, api_base: 'ftp://relay.example.com' }],
    ['a missing app_base', { ...valid, app_base: undefined }],
    ['an invalid default pool', { ...valid, default_pool: 'a b' }],
    ['auth without web_login', { ...valid, auth: { cli_forge_token: true } }],
    ['a min version that is not semver', { ...valid, min_cli_version: 'v1' }],
    ['an unknown field', { ...valid, admin_token: 'x' }],
  ])('rejects %s', (_name, input) => {
    expect(discoveryDocumentSchema.safeParse(input).success).toBe(false);
  });
});
