import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createForgeSim, type ForgeSim } from '../forge-sim.js';
import { seedDemoWorld, type DemoWorldIds } from '../world/demo-world.js';
import { createSimClock } from '../world/sim-clock.js';

let sim: ForgeSim;
let ids: DemoWorldIds;
let token: string;

beforeEach(async () => {
  sim = await createForgeSim({
    clock: createSimClock({ start: Date.parse('2026-03-02T10:00:00Z') }),
  });
  ids = seedDemoWorld(sim.world);
  token = sim.tokens.addPat({ login: 'alice' }).token;
});

afterEach(async () => {
  await sim.close();
});

/** The numbers `GET /repos/acme/widgets/pulls?<query>` lists. */
async function listed(query: Record<string, string>): Promise<number[]> {
  const response = await fetch(
    `${sim.urls.api}/repos/acme/widgets/pulls?${new URLSearchParams(query).toString()}`,
    { headers: { authorization: `token ${token}` } },
  );
  expect(response.status).toBe(200);
  return ((await response.json()) as { number: number }[]).map((pull) => pull.number);
}

describe('GET /repos/{owner}/{repo}/pulls?head=', () => {
  it.each<[string, Record<string, string>, (ids: DemoWorldIds) => number[]]>([
    ['owner:branch of the repository', { head: 'acme:feature/sprockets' }, (i) => [i.pullNumber]],
    [
      'the owner’s login matches case-insensitively',
      { head: 'ACME:feature/sprockets' },
      (i) => [i.pullNumber],
    ],
    [
      'another owner’s branch of that name is not this PR’s head',
      { head: 'hubot:feature/sprockets' },
      () => [],
    ],
    ['the branch must match too', { head: 'acme:feature' }, () => []],
    [
      'state=all keeps the merged PR',
      { head: 'acme:fix/typo', state: 'all' },
      (i) => [i.mergedPullNumber],
    ],
    ['the default state is open', { head: 'acme:fix/typo' }, () => []],
    [
      'a head without an owner compares the branch',
      { head: 'feature/sprockets' },
      (i) => [i.pullNumber],
    ],
  ])('%s', async (_name, query, expected) => {
    expect(await listed(query)).toEqual(expected(ids));
  });
});
