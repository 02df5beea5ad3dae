import { describe, expect, it } from 'vitest';
import type { Agent, AgentContext } from '../../agents/agent.ts';
import { SolvingAgent } from '../../agents/solving-agent.ts';
import {
  applyAction,
  DEFAULT_RULES,
  formatPosition,
  initialPosition,
  legalActions,
  outcome,
  type Position,
  Random,
  resolveRules,
} from '../../env/index.ts';
import { buildEndgame, solve } from '../../solve/index.ts';

const rules = DEFAULT_RULES;

/** An inner search that records that it was asked and plays the first legal move. */
function firstLegal(): Agent & { calls: number } {
  return {
    name: 'first',
    calls: 0,
    act(_position: Position, ctx: AgentContext): number {
      this.calls++;
      return ctx.legal[0] as number;
    },
  };
}

const seedsOn = (p: Position): number => p.pits.reduce((sum, n) => sum + n, 0);

/** Positions from random games once at most `seeds` seeds are left, that the mover has won. */
function wonPositions(count: number, seeds: number, seed: number): Position[] {
  const rng = Random.fromSeed(seed);
  const found: Position[] = [];
  while (found.length < count) {
    let p = initialPosition();
    while (outcome(p, rules) === null && seedsOn(p) > seeds) {
      p = applyAction(p, rng.pick(legalActions(p, rules)), rules);
    }
    if (outcome(p, rules) !== null) continue;
    if (solve(p, { rules, moves: false }).value === 'win') found.push(p);
  }
  return found;
}

describe('SolvingAgent', () => {
  it('wins every proven win to the end against random replies, each move keeping the win', () => {
    // A small endgame table, so that both of the agent's fresh-proof solvers are used.
    const endgame = buildEndgame(6, rules);
    const agent = new SolvingAgent(firstLegal(), {
      name: 'solving',
      rules,
      solveMs: 2000,
      endgame,
    });
    const rng = Random.fromSeed(7);
    for (const start of wonPositions(12, 14, 3)) {
      agent.newGame?.();
      const winner = start.toMove;
      let p = start;
      let plies = 0;
      while (outcome(p, rules) === null) {
        const legal = legalActions(p, rules);
        let action: number;
        if (p.toMove === winner) {
          action = agent.act(p, { legal, rng, rules }) as number;
          const after = applyAction(p, action, rules);
          const end = outcome(after, rules);
          // The move keeps the win: the game is won, or the opponent (to move) has lost.
          if (end === null) {
            expect(solve(after, { rules, moves: false }).value, formatPosition(p)).toBe(
              after.toMove === winner ? 'win' : 'loss',
            );
          }
        } else {
          action = rng.pick(legal);
        }
        p = applyAction(p, action, rules);
        plies++;
        expect(plies, `no end from ${formatPosition(start)}`).toBeLessThan(400);
      }
      expect(outcome(p, rules)?.winner, formatPosition(start)).toBe(winner);
    }
    expect(agent.counts.searched).toBe(0);
  });

  it('leaves an unproven position to the search', () => {
    const inner = firstLegal();
    // The start takes seconds to solve without an endgame table: not within 1 ms.
    const agent = new SolvingAgent(inner, { name: 'solving', rules, solveMs: 1 });
    const start = initialPosition();
    const action = agent.act(start, {
      legal: legalActions(start, rules),
      rng: Random.fromSeed(1),
      rules,
    });
    expect(action).toBe(0);
    expect(inner.calls).toBe(1);
    expect(agent.counts).toEqual({ solved: 0, searched: 1 });
  });

  it('refuses a game under other rules than its tables', () => {
    const agent = new SolvingAgent(firstLegal(), { name: 'solving', rules, solveMs: 10 });
    const other = resolveRules({ captureSeedStays: true });
    const start = initialPosition();
    expect(() =>
      agent.act(start, {
        legal: legalActions(start, other),
        rng: Random.fromSeed(1),
        rules: other,
      }),
    ).toThrow(
      "solving was made for captureSeedStays=false,leftoverTo=opponent, not this game's captureSeedStays=true,leftoverTo=opponent (its solver's tables hold values under its own rules): start it with --rules captureSeedStays=true,leftoverTo=opponent to play these rules",
    );
  });
});
