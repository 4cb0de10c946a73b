import { afterEach, describe, expect, it } from 'vitest';
import {
  ADMIN_TOKEN,
  bearer,
  createTestHarness,
  type TestHarness,
} from '../__fixtures__/test-harness.js';

const open: TestHarness[] = [];
afterEach(async () => {
  for (const harness of open.splice(0)) await harness.close();
});

describe('backpressure', () => {
  it('answers 503 relay_overloaded on the non-relay surfaces while the audit queue is backed up', async () => {
    let backlog = 0;
    const harness = await createTestHarness({
      services: { overload: { auditBacklog: () => backlog, maxAuditBacklog: 100 } },
    });
    open.push(harness);
    expect(
      (await harness.app.request('/v1/admin/string-rewrites', bearer(ADMIN_TOKEN))).status,
    ).toBe(200);
    backlog = 100;
    const response = await harness.app.request('/v1/admin/string-rewrites', bearer(ADMIN_TOKEN));
    expect(response.status).toBe(503);
    expect(((await response.json()) as { error: { code: string } }).error.code).toBe(
      'relay_overloaded',
    );
    expect(response.headers.get('x-relay-request-id')).not.toBeNull();
    // Discovery needs no database; the relay pipeline answers overload with its own 424.
    expect((await harness.app.request('/.well-known/relay')).status).toBe(200);
    expect((await harness.app.request('/v1/forge/request', { method: 'POST' })).status).toBe(404);
    backlog = 0;
    expect(
      (await harness.app.request('/v1/admin/string-rewrites', bearer(ADMIN_TOKEN))).status,
    ).toBe(200);
  });

  it('refuses new work once the in-flight bound is reached, and admits it again after', async () => {
    const harness = await createTestHarness({ services: { overload: { maxInFlight: 1 } } });
    open.push(harness);
    let release: () => void = () => undefined;
    const blocked = harness.services.overload.run(
      () => new Promise<void>((resolve) => (release = resolve)),
    );
    const refused = await harness.app.request('/v1/admin/string-rewrites', bearer(ADMIN_TOKEN));
    expect(refused.status).toBe(503);
    release();
    await blocked;
    expect(harness.services.overload.inFlight()).toBe(0);
    expect(
      (await harness.app.request('/v1/admin/string-rewrites', bearer(ADMIN_TOKEN))).status,
    ).toBe(200);
  });
});
