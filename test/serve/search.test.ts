import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { CachedEvaluator } from '../../agents/evaluation-cache.ts';
import { PuctSearch } from '../../agents/puct.ts';
import {
  DEFAULT_RULES,
  formatPosition,
  legalActions,
  parsePosition,
  position,
  START_NOTATION,
} from '../../env/index.ts';
import { type LoadedPolicy, loadPolicy } from '../../models/load-policy.ts';
import { NetworkEvaluator } from '../../models/network-evaluator.ts';
import { PolicySearch } from '../../models/search-agents.ts';
import { type ActResponse, PolicyService } from '../../serve/policy-service.ts';
import { writeRandomPolicy } from '../export/random-policy.ts';
import { startCommand } from './command-process.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const MIDGAME = '0,5,5,5,5,4/4,4,4,4,4,4/0-0/1';
/** Player 0 to move: action 4 captures 3 + 1 and reaches 26, a win at once. */
const WIN_IN_ONE = position({
  pits: [2, 0, 0, 0, 1, 0, 3, 0, 0, 0, 0, 0],
  stores: [22, 20],
  toMove: 0,
});

describe('the HTTP service with a PUCT search', () => {
  let dir: string;
  let policy: LoadedPolicy;
  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'ayoayo-serve-search-'));
    policy = loadPolicy(writeRandomPolicy(dir));
  });

  it("answers the search's move and visits, as a PUCT search with the same network finds them", async () => {
    const policySearch = await PolicySearch.create(policy, 'sims=60,batch=1', '--search');
    const service = new PolicyService(policy, policySearch);
    const bare = new PolicyService(policy);
    for (const notation of [START_NOTATION, MIDGAME]) {
      const answer = service.act({ position: notation });
      // The same network on the same inference backend (floats differ between backends).
      const network = new NetworkEvaluator(policy.weights, policy.observation, policy.rules, {
        forward: policySearch.inference.forward,
      });
      const expected = new PuctSearch(new CachedEvaluator(network, 16), {
        rules: policy.rules,
      }).search(parsePosition(notation).toState(), { simulations: 60 });
      expect(answer.action).toBe(expected.bestActions[0]);
      expect(answer.search).toEqual({
        simulations: 60,
        visits: Array.from(expected.visits),
        policy: Array.from(expected.policy),
        q: Array.from(expected.q),
        value: expected.value,
        solved: false,
      });
      const legal = legalActions(parsePosition(notation), DEFAULT_RULES);
      const search = answer.search as NonNullable<ActResponse['search']>;
      expect(search.policy.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
      search.policy.forEach((p, a) => {
        if (!legal.includes(a)) expect(p).toBe(0);
      });
      // The network's own view is unchanged.
      const plain = bare.act({ position: notation });
      expect(answer.probabilities).toEqual(plain.probabilities);
      expect(answer.value).toBe(plain.value);
    }
    expect(service.describe()).toMatchObject({ search: expect.stringMatching(/^az sims=60,/) });
  });

  it('plays a proven win whatever the network thinks', async () => {
    const service = new PolicyService(
      policy,
      await PolicySearch.create(policy, 'sims=400', '--search'),
    );
    const answer = service.act({ position: formatPosition(WIN_IN_ONE) });
    expect(answer.action).toBe(4);
    expect(answer.search).toMatchObject({ solved: true, value: 1 });
  });

  it('refuses bad search options with a message naming them', async () => {
    await expect(PolicySearch.create(policy, 'sims=0', '--search')).rejects.toThrow(
      /^invalid --search: .*sims must be an integer in 1\.\.10000000/,
    );
    await expect(PolicySearch.create(policy, '200', '--search')).rejects.toThrow(
      "invalid --search: '200' is not key=value",
    );
  });

  it('ayoayo serve --search answers with the search, and refuses bad options in one line', async () => {
    const server = await startCommand([
      'serve',
      '--policy',
      dir,
      '--port',
      '0',
      '--search',
      'sims=40',
    ]);
    try {
      expect(server.stdout()).toMatch(/with a PUCT search \(sims=40,c=1\.5,.*batch=16\) on http/);
      const res = await fetch(`${server.url}/act`, {
        method: 'POST',
        body: JSON.stringify({ position: MIDGAME }),
      });
      expect(res.status).toBe(200);
      const body = (await res.json()) as ActResponse;
      expect(body.search?.simulations).toBe(40);
      expect(body.search?.visits[body.action]).toBe(Math.max(...(body.search?.visits ?? [])));
    } finally {
      const { code, stderr } = await server.stop();
      expect(stderr).toBe('');
      expect(code).toBe(0);
    }
    const bad = spawnSync(
      process.execPath,
      ['bin/ayoayo.js', 'serve', '--policy', dir, '--search', 'sims=5,bogus=1'],
      { cwd: root, encoding: 'utf8', timeout: 60_000 },
    );
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/^ayoayo: invalid --search: .*bogus/);
    expect(bad.stderr.trim().split('\n')).toHaveLength(1);
  }, 60_000);
});
