import { describe, expect, it } from 'vitest';
import { StoreDifferenceEvaluator } from '../../agents/evaluator.ts';
import { PuctAgent } from '../../agents/puct/agent.ts';
import { createAgent } from '../../agents/spec.ts';
import { DEFAULT_RULES } from '../../env/index.ts';
import { playMatch } from '../../eval/match.ts';

/**
 * Statistical strength over seeded games (balanced 4-ply openings, half the
 * games from each seat). A fixed seed makes each run the same; "beats" means the
 * whole 95% interval of the score lies above one half.
 */
describe('baseline strength against random', () => {
  it('minimax:4 wins at least 95% of 200 games', async () => {
    const result = await playMatch({
      a: await createAgent('minimax:4'),
      b: await createAgent('random'),
      games: 200,
      seed: 1,
    });
    expect(result.wins / result.games).toBeGreaterThanOrEqual(0.95);
  });

  it('greedy beats random', async () => {
    const result = await playMatch({
      a: await createAgent('greedy'),
      b: await createAgent('random'),
      games: 200,
      seed: 2,
    });
    expect(result.ci[0]).toBeGreaterThan(0.5);
  });

  it('mcts:1000 beats random', async () => {
    const result = await playMatch({
      a: await createAgent('mcts:1000'),
      b: await createAgent('random'),
      games: 60,
      seed: 3,
    });
    expect(result.ci[0]).toBeGreaterThan(0.5);
    expect(result.wins / result.games).toBeGreaterThanOrEqual(0.8);
  });

  it('minimax:4 beats greedy', async () => {
    const result = await playMatch({
      a: await createAgent('minimax:4'),
      b: await createAgent('greedy'),
      games: 100,
      seed: 4,
    });
    expect(result.ci[0]).toBeGreaterThan(0.5);
  });

  it('PUCT without a network (uniform priors, store difference) beats greedy', async () => {
    const result = await playMatch({
      a: new PuctAgent(new StoreDifferenceEvaluator(), {
        name: 'puct',
        rules: DEFAULT_RULES,
        simulations: 300,
        reuseTree: true,
      }),
      b: await createAgent('greedy'),
      games: 60,
      seed: 5,
    });
    expect(result.ci[0]).toBeGreaterThan(0.5);
  });
});
