import { afterEach, describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN,
  addForgeAccount,
  createTestHarness,
  jsonRequest,
  login,
  type TestHarness,
} from '../__fixtures__/test-harness.js';

const open: TestHarness[] = [];
afterEach(async () => {
  for (const harness of open.splice(0)) await harness.close();
});

describe('access log', () => {
  it('logs request id, route pattern, status and duration, and never tokens, bodies or query values', async () => {
    const harness = await createTestHarness();
    open.push(harness);
    addForgeAccount(harness.forge, { id: 1, login: 'mona', token: 'gho_forge_secret' });
    const { token } = (await (await login(harness, 'gho_forge_secret', 'laptop')).json()) as {
      token: string;
    };
    await harness.app.request('/v1/pools/default/stats?window=7d&client=private-name', {
      headers: { authorization: `Bearer ${token}` },
    });
    await harness.app.request(
      '/v1/admin/string-rewrites',
      jsonRequest(
        'PUT',
        {
          schema_version: 1,
          expected_revision: 1,
          rules: [{ pattern: 'hidden-pattern', replacement: '' }],
        },
        ADMIN_TOKEN,
      ),
    );
    await harness.app.request('/nowhere?q=private-query');
    expect(harness.logs.map((e) => [e.method, e.route, e.status])).toEqual([
      ['POST', '/v1/login/forge-cli', 200],
      ['GET', '/v1/pools/:pool/stats', 200],
      ['PUT', '/v1/admin/string-rewrites', 200],
      ['GET', '(unmatched)', 404],
    ]);
    expect(harness.logs[0]).toMatchObject({ level: 'info', msg: 'request', request_id: 'req-1' });
    expect(harness.logs[3]?.level).toBe('warn');
    const dump = JSON.stringify(harness.logs);
    for (const secret of [
      'gho_forge_secret',
      token,
      ADMIN_TOKEN,
      'private-name',
      '7d',
      'hidden-pattern',
      'private-query',
      'default',
    ]) {
      expect(dump).not.toContain(secret);
    }
  });
});
