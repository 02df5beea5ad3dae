import { describe, expect, it } from 'vitest';
import type { Agent, AgentContext } from '../../agents/agent.ts';
import { createAgent } from '../../agents/spec.ts';
import {
  applyAction,
  formatPosition,
  initialPosition,
  legalActions,
  outcome,
  type Position,
  Random,
  type Rules,
  resolveRules,
} from '../../env/index.ts';
import { randomPositions } from './positions.ts';

const variants: Rules[] = [
  resolveRules({}),
  resolveRules({ captureSeedStays: true }),
  resolveRules({ leftoverTo: 'owner' }),
];

const specs = ['random', 'greedy', 'minimax:1', 'minimax:3', 'minimax:t=2ms', 'mcts:60'];

/** Plays whole games between two agents and returns every (position, legal, chosen) triple. */
async function playGames(
  a: Agent,
  b: Agent,
  games: number,
  seed: number,
  rules: Rules,
): Promise<{ position: Position; legal: readonly number[]; action: number }[]> {
  const moves: { position: Position; legal: readonly number[]; action: number }[] = [];
  const rng = Random.fromSeed(seed);
  for (let g = 0; g < games; g++) {
    let pos = initialPosition();
    const players = g % 2 === 0 ? [a, b] : [b, a];
    while (outcome(pos, rules) === null) {
      const legal = legalActions(pos, rules);
      const before = formatPosition(pos);
      const ctx: AgentContext = { legal, rng, rules };
      const action = await (players[pos.toMove] as Agent).act(pos, ctx);
      expect(formatPosition(pos)).toBe(before); // agents never change the position
      moves.push({ position: pos, legal, action });
      if (!legal.includes(action)) return moves;
      pos = applyAction(pos, action, rules);
    }
  }
  return moves;
}

describe('every agent plays only legal moves', () => {
  for (const rules of variants) {
    const label = `captureSeedStays=${rules.captureSeedStays}, leftoverTo=${rules.leftoverTo}`;
    it.each(specs)(`%s over seeded games (${label})`, async (spec) => {
      const agent = await createAgent(spec, { rules });
      const opponent = await createAgent('random', { rules });
      const moves = await playGames(agent, opponent, 12, 17, rules);
      expect(moves.length).toBeGreaterThan(12 * 8);
      for (const { legal, action, position } of moves) {
        expect(legal, formatPosition(position)).toContain(action);
      }
    });
  }

  it.each(specs)('%s on positions from random play', async (spec) => {
    const rules = variants[0] as Rules;
    const agent = await createAgent(spec, { rules });
    const rng = Random.fromSeed(2);
    for (const pos of randomPositions(9, 60, rules)) {
      const legal = legalActions(pos, rules);
      expect(legal).toContain(await agent.act(pos, { legal, rng, rules }));
    }
  });
});
