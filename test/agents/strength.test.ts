import { describe, expect, it } from 'vitest';
import { createAgent } from '../../agents/spec.ts';
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
});
