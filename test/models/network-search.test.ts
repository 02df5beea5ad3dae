import { describe, expect, it } from 'vitest';
import type { Evaluator } from '../../agents/evaluator.ts';
import { MinimaxAgent } from '../../agents/minimax.ts';
import { MinimaxSearch } from '../../agents/minimax-search.ts';
import { registerNetworkKinds } from '../../agents/network/kinds.ts';
import { NetworkLeafEvaluator } from '../../agents/network/network-leaf.ts';
import { networkEvaluator } from '../../agents/network/search-agents.ts';
import { createAgent } from '../../agents/spec.ts';
import { DEFAULT_RULES, legalActions, maskToBytes, Random } from '../../env/index.ts';
import { randomPositions } from '../agents/positions.ts';

// The kinds that load a network (`policy:`, `az:`, ...), as the command line registers them.
registerNetworkKinds();

const rules = DEFAULT_RULES;
const PRETRAINED = 'models/pretrained';

/** A "network" whose value is always 0: store difference + k x value is the store difference. */
const zeroValue: Evaluator = {
  evaluate(_states, masks, count, priors, values) {
    for (let i = 0; i < count; i++) {
      maskToBytes(masks[i] as number, priors, i * 6);
      values[i] = 0;
    }
  },
};

describe('alpha-beta with a network at the horizon', () => {
  it('gives the same values and moves as plain alpha-beta when the value is the store difference', () => {
    // k = 16 keeps the window test live: leaves outside it return bounds without the network.
    const leaf = new NetworkLeafEvaluator(zeroValue, 16, rules);
    const withLeaf = new MinimaxSearch({ rules, leaf });
    const plain = new MinimaxSearch({ rules });
    for (const pos of randomPositions(61, 40, rules)) {
      for (const depth of [1, 2, 4, 6]) {
        const a = withLeaf.search(pos.toState(), { depth });
        const b = plain.search(pos.toState(), { depth });
        expect(a.value).toBe(b.value);
        expect([...a.bestActions].sort()).toEqual([...b.bestActions].sort());
      }
    }
    expect(leaf.skipped).toBeGreaterThan(0);
  });

  it('plays as minimax does with the shipped network at weight k=0, through the spec', async () => {
    const net = await createAgent(`minimax:5,eval=${PRETRAINED},k=0`, { rules });
    const plain = new MinimaxAgent({ rules, depth: 5 });
    for (const pos of randomPositions(62, 20, rules)) {
      const legal = legalActions(pos, rules);
      const a = await net.act(pos, { legal, rng: Random.fromSeed(3), rules });
      const b = plain.act(pos, { legal, rng: Random.fromSeed(3), rules });
      expect(a).toBe(b);
    }
  });

  it('changes some moves once the value counts', async () => {
    const net = await createAgent(`minimax:3,eval=${PRETRAINED},k=16`, { rules });
    const plain = new MinimaxAgent({ rules, depth: 3 });
    let differ = 0;
    for (const pos of randomPositions(63, 40, rules)) {
      const legal = legalActions(pos, rules);
      const a = await net.act(pos, { legal, rng: Random.fromSeed(3), rules });
      if (a !== plain.act(pos, { legal, rng: Random.fromSeed(3), rules })) differ++;
    }
    expect(differ).toBeGreaterThan(0);
  });
});

describe('az: PUCT with the network', () => {
  it('gives the same move and visits for the same seed, single leaves and batches', async () => {
    for (const spec of [`az:${PRETRAINED},sims=120,batch=1`, `az:${PRETRAINED},sims=120`]) {
      const run = async () => {
        const agent = await createAgent(spec, { rules });
        const out: unknown[] = [];
        for (const pos of randomPositions(64, 6, rules)) {
          const legal = legalActions(pos, rules);
          const action = await agent.act(pos, { legal, rng: Random.fromSeed(5), rules });
          out.push(action, [
            ...((agent as { lastSearch?: { visits: Float64Array } }).lastSearch?.visits ?? []),
          ]);
        }
        return out;
      };
      expect(await run()).toEqual(await run());
    }
  });

  it('the tfjs forward pass for batches agrees with the plain runner', async () => {
    const plain = await networkEvaluator(PRETRAINED, rules, 1, false);
    const tfjs = await networkEvaluator(PRETRAINED, rules, 1, true);
    const positions = randomPositions(65, 24, rules);
    const states = new Uint8Array(24 * 16);
    const masks = new Uint8Array(24);
    positions.forEach((pos, i) => {
      states.set(pos.toState(), i * 16);
      for (const a of legalActions(pos, rules)) masks[i] = (masks[i] as number) | (1 << a);
    });
    const run = (e: Evaluator) => {
      const priors = new Float32Array(24 * 6);
      const values = new Float64Array(24);
      e.evaluate(states, masks, 24, priors, values);
      return { priors, values };
    };
    const a = run(plain);
    const b = run(tfjs);
    for (let i = 0; i < 24 * 6; i++) expect(b.priors[i]).toBeCloseTo(a.priors[i] as number, 4);
    for (let i = 0; i < 24; i++) expect(b.values[i]).toBeCloseTo(a.values[i] as number, 4);
  });

  it('gumbel=1 plays by Gumbel root search with few simulations, the same move for the same seed', async () => {
    const run = async (seed: number) => {
      const agent = await createAgent(`az:${PRETRAINED},sims=6,gumbel=1,prior=1`, { rules });
      const out: number[] = [];
      for (const pos of randomPositions(66, 8, rules)) {
        const legal = legalActions(pos, rules);
        const action = await agent.act(pos, { legal, rng: Random.fromSeed(seed), rules });
        expect(legal).toContain(action);
        const visits = (agent as { lastSearch?: { visits: Float64Array } }).lastSearch?.visits;
        if (legal.length > 1) expect(visits?.reduce((a, b) => a + b, 0)).toBe(6);
        out.push(action);
      }
      return out;
    };
    expect(await run(9)).toEqual(await run(9));
    await expect(createAgent(`az:${PRETRAINED},gumbel=1,t=5ms`)).rejects.toThrow(
      /gumbel=1 needs sims, not t/,
    );
  });

  it('rejects bad options with a message naming them', async () => {
    await expect(createAgent(`az:${PRETRAINED},sims=0`)).rejects.toThrow(
      /sims must be an integer in 1\.\.10000000/,
    );
    await expect(createAgent(`az:${PRETRAINED},bogus=1`)).rejects.toThrow(/bogus/);
    await expect(createAgent(`az:${PRETRAINED},sims=5,t=5ms`)).rejects.toThrow(/not both/);
    await expect(createAgent('az:/nonexistent/policy')).rejects.toThrow(/nonexistent/);
    await expect(createAgent(`minimax:t=50ms,eval=${PRETRAINED},k=x`)).rejects.toThrow(
      /k must be a number/,
    );
  });
});
