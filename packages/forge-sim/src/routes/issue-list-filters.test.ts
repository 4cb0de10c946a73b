import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createForgeSim, type ForgeSim } from '../forge-sim.js';
import { createSimClock } from '../world/sim-clock.js';

let sim: ForgeSim;

/**
 * acme/widgets with four issues a minute apart: #1 in milestone v1, #2 in v2 mentioning
 * `@hubot` in its body, #3 mentioning `@HUBOT` in a comment, #4 with look-alikes only.
 */
beforeEach(async () => {
  const clock = createSimClock({ start: Date.parse('2026-03-02T10:00:00Z') });
  sim = await createForgeSim({ clock });
  const { world } = sim;
  const minuteLater = (): void => {
    clock.advance(60_000);
  };
  world.addOrg({ login: 'acme' });
  world.addUser({ login: 'hubot' });
  world.addRepo({ owner: 'acme', name: 'widgets', private: false });
  world.addIssue({
    owner: 'acme',
    repo: 'widgets',
    title: 'one',
    author: 'hubot',
    milestone: 'v1',
  });
  minuteLater();
  world.addIssue({
    owner: 'acme',
    repo: 'widgets',
    title: 'two',
    author: 'hubot',
    body: 'cc @hubot please',
    milestone: 'v2',
  });
  minuteLater();
  const three = world.addIssue({ owner: 'acme', repo: 'widgets', title: 'three', author: 'hubot' });
  world.addIssueComment({
    owner: 'acme',
    repo: 'widgets',
    number: three.number,
    author: 'hubot',
    body: '@HUBOT: look',
  });
  minuteLater();
  world.addIssue({
    owner: 'acme',
    repo: 'widgets',
    title: 'four',
    author: 'hubot',
    body: 'not @hubot-two, not email@hubot',
  });
});

afterEach(async () => {
  await sim.close();
});

async function titles(query: string): Promise<string[]> {
  const response = await fetch(`${sim.urls.api}/repos/acme/widgets/issues?${query}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { title: string }[]).map((issue) => issue.title);
}

describe('GET /repos/{o}/{r}/issues filters', () => {
  it.each([
    ['milestone=1', ['one']],
    ['milestone=2', ['two']],
    ['milestone=3', []],
    ['milestone=*', ['two', 'one']],
    ['milestone=none', ['four', 'three']],
    ['mentioned=hubot', ['three', 'two']],
    ['mentioned=hubot&milestone=2', ['two']],
    ['mentioned=nobody', []],
  ])('%s', async (query, expected) => {
    expect(await titles(query)).toEqual(expected);
  });
});

describe('GET /search/issues', () => {
  it('filters type:issue and state, newest created first', async () => {
    const q = encodeURIComponent('o repo:acme/widgets state:open type:issue');
    const response = await fetch(`${sim.urls.api}/search/issues?q=${q}`);
    const body = (await response.json()) as { items: { title: string }[] };
    expect(body.items.map((item) => item.title)).toEqual(['four', 'two', 'one']);
  });
});
