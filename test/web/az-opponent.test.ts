import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { NetworkEvaluator } from '../../agents/network/network-evaluator.ts';
import { PuctSearch } from '../../agents/puct/search.ts';
import { DEFAULT_RULES, legalActions } from '../../env/index.ts';
import { decodeBrowserPolicy } from '../../models/export/browser-policy.ts';
import { createComputer, opponentOf } from '../../web/src/opponents.ts';
import { randomPositions } from '../agents/positions.ts';
import { writeRandomPolicy } from '../export/random-policy.ts';

const policy = decodeBrowserPolicy(
  JSON.parse(
    readFileSync(writeRandomPolicy(mkdtempSync(join(tmpdir(), 'ayoayo-az-web-'))), 'utf8'),
  ),
);
const rules = DEFAULT_RULES;
const AZ_50 = 'az:models/pretrained,sims=50,batch=1,reuse=0,cache=14';

describe("the page's az opponent (PUCT over the exported policy, plain runner)", () => {
  it('offers simulation budgets as its strength and needs the policy', () => {
    const az = opponentOf('az');
    expect(az.needsPolicy).toBe(true);
    expect(az.strengths.map((s) => s.spec)).toEqual(
      [50, 200, 800, 3200].map((n) => `az:models/pretrained,sims=${n},batch=1,reuse=0,cache=14`),
    );
    expect(az.strengths[az.defaultStrength]?.label).toBe('200 simulations a move');
  });

  it('plays one of the moves a fresh PUCT search with the network rates best, the same for the same seed', async () => {
    const positions = randomPositions(71, 8, rules).filter(
      (p) => legalActions(p, rules).length > 1,
    );
    const search = new PuctSearch(new NetworkEvaluator(policy.weights, policy.observation, rules), {
      rules,
    });
    const play = async (seed: number) => {
      const computer = await createComputer(AZ_50, rules, seed, policy);
      const moves: number[] = [];
      for (const pos of positions) moves.push((await computer.choose(pos)).action);
      return moves;
    };
    const moves = await play(5);
    positions.forEach((pos, i) => {
      const best = search.search(pos.toState(), { simulations: 50 }).bestActions;
      expect(best, `az:50 in position ${i}`).toContain(moves[i]);
    });
    expect(await play(5)).toEqual(moves);
  });
});
