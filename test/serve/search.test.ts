import { spawnSync } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { CachedEvaluator } from '../../agents/evaluation-cache.ts';
import { NetworkEvaluator } from '../../agents/network/network-evaluator.ts';
import { PolicySearch } from '../../agents/network/policy-search.ts';
import { PerfectSearch } from '../../agents/perfect-search.ts';
import { PuctSearch } from '../../agents/puct/search.ts';
import {
  DEFAULT_RULES,
  formatPosition,
  legalActions,
  parsePosition,
  position,
  type Rules,
  resolveRules,
  START_NOTATION,
  sameRules,
} from '../../env/index.ts';
import { type LoadedPolicy, loadPolicy } from '../../models/load-policy.ts';
import { RequestError } from '../../serve/act-request.ts';
import { type ActResponse, PolicyService } from '../../serve/policy-service.ts';
import { bookIfAny } from '../../solve/book/cache/load-book.ts';
import { buildEndgame, solve } from '../../solve/index.ts';
import { writeRandomPolicy } from '../export/random-policy.ts';
import { startCommand } from './command-process.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const MIDGAME = '0,5,5,5,5,4/4,4,4,4,4,4/0-0/1';
/** Player 0 to move: action 4 captures 3 + 1 and reaches 26, a win at once. */
/**
 * Player 1 to move, 13 seeds left: only action 0 wins (3 loses, 5 draws), a
 * proof 31 plies deep; PUCT over the test's random network rates 3 best, still
 * at 1000 simulations (514 visits against 284).
 */
const ONE_DEEP_WIN = '0,0,0,0,1,9/1,0,0,1,0,1/16-19/1';
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
      const answer = await service.act({ position: notation });
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
      const plain = await bare.act({ position: notation });
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
    const answer = await service.act({ position: formatPosition(WIN_IN_ONE) });
    expect(answer.action).toBe(4);
    expect(answer.search).toMatchObject({ solved: true, value: 1 });
  });

  it('with solve=1 answers the move the solver proves, and says the position is solved', async () => {
    const loads: string[] = [];
    const endgame = (rules: Rules) => {
      loads.push(JSON.stringify(rules));
      return buildEndgame(6, rules);
    };
    const solving = await PolicySearch.create(policy, 't=2s,solve=1', '--search', { endgame });
    expect(loads).toEqual([JSON.stringify(policy.rules)]);
    const service = new PolicyService(policy, solving);
    const answer = await service.act({ position: ONE_DEEP_WIN });
    expect(answer.action).toBe(0);
    expect(answer.pit).toBe(6);
    expect(answer.search).toEqual({
      simulations: 0,
      visits: [0, 0, 0, 0, 0, 0],
      policy: [1, 0, 0, 0, 0, 0],
      q: [0, 0, 0, 0, 0, 0],
      value: 1,
      solved: true,
    });
    // The network's own view is unchanged; the answer is a function of the request.
    expect(answer.probabilities).toEqual(
      (await new PolicyService(policy).act({ position: ONE_DEEP_WIN })).probabilities,
    );
    expect((await service.act({ position: formatPosition(WIN_IN_ONE) })).action).toBe(4);
    expect(await service.act({ position: ONE_DEEP_WIN })).toEqual(answer);
    // Other rules: the solver without a table (none is built for a request), its move keeping the value.
    const owner = resolveRules({ leftoverTo: 'owner' });
    const truth = solve(parsePosition(ONE_DEEP_WIN), { rules: owner });
    const other = await service.act({ position: ONE_DEEP_WIN, rules: { leftoverTo: 'owner' } });
    expect(other.search).toMatchObject({ simulations: 0, solved: true });
    expect(truth.moves.find((m) => m.action === other.action)?.value).toBe(truth.value);
    expect(loads).toHaveLength(1);
    expect(solving.description).toMatch(/^t=2000ms,.*,solve=1$/);
    expect(service.describe()).toMatchObject({ search: expect.stringMatching(/,solve=1$/) });

    // PUCT alone rates another move best, and proves nothing.
    const searching = new PolicyService(
      policy,
      await PolicySearch.create(policy, 'sims=1000', '--search'),
    );
    const searched = await searching.act({ position: ONE_DEEP_WIN });
    expect(searched.action).not.toBe(0);
    expect(searched.search).toMatchObject({ simulations: 1000, solved: false });
  });

  it('with solve=1 leaves a position the solver does not prove in its share to PUCT', async () => {
    const service = new PolicyService(
      policy,
      await PolicySearch.create(policy, 't=60ms,solve=1', '--search', { endgame: () => null }),
    );
    const answer = await service.act({ position: START_NOTATION });
    expect(answer.search?.solved).toBe(false);
    expect(answer.search?.simulations).toBeGreaterThan(0);
    expect(answer.search?.visits[answer.action]).toBe(Math.max(...(answer.search?.visits ?? [])));
  });

  it('with perfect answers the perfect player’s move: from the book at the start, solved after', async () => {
    const service = new PolicyService(policy, new PerfectSearch(policy.rules));
    const start = await service.act({ position: START_NOTATION });
    // Only action 2 wins the start (docs/solver.md); the network alone would not know it.
    expect(start.action).toBe(2);
    expect(start.search).toMatchObject({ simulations: 0, value: 1, solved: true });
    expect(start.search?.policy).toEqual([0, 0, 1, 0, 0, 0]);
    const answer = await service.act({ position: ONE_DEEP_WIN });
    expect([answer.action, answer.search?.value, answer.search?.solved]).toEqual([0, 1, true]);
    expect(service.describe()).toMatchObject({ search: 'perfect' });
  });

  it('with perfect refuses (422) a position under rules it has no book for, naming the command that builds one', async () => {
    // No book but the service's own, whatever this machine's cache holds.
    const book = (rules: Rules) => (sameRules(rules, policy.rules) ? bookIfAny(rules) : null);
    const service = new PolicyService(policy, new PerfectSearch(policy.rules, { book }));
    const refused = service.act({ position: START_NOTATION, rules: { captureSeedStays: true } });
    await expect(refused).rejects.toBeInstanceOf(RequestError);
    await expect(refused).rejects.toMatchObject({
      status: 422,
      message: expect.stringMatching(
        /^--search perfect has no opening book under captureSeedStays=true,leftoverTo=opponent, .*: build one with `ayoayo book build --rules captureSeedStays=true,leftoverTo=opponent`, then start the service again$/,
      ),
    });
    expect((await service.act({ position: START_NOTATION })).action).toBe(2);
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
