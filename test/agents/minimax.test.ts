import { describe, expect, it } from 'vitest';
import { MinimaxAgent } from '../../agents/minimax.ts';
import { MinimaxSearch, PROVEN, WIN } from '../../agents/minimax-search.ts';
import {
  DEFAULT_RULES,
  legalActions,
  outcome,
  type Position,
  playMove,
  position,
  Random,
  resolveRules,
} from '../../env/index.ts';
import { endgame, randomPositions, solveActions } from './positions.ts';

const rules = DEFAULT_RULES;

/** Player 0 to move: action 4 drops its one seed in empty pit 5 and captures pit 6 (5 seeds). */
const captureAvailable = position({
  pits: [2, 0, 0, 0, 1, 0, 5, 3, 2, 0, 1, 4],
  stores: [15, 15],
  toMove: 0,
});

/** As above with stores 22-20: the capture of 3 + 1 takes player 0 to 26 and wins at once. */
const winAvailable = position({
  pits: [2, 0, 0, 0, 1, 0, 3, 0, 0, 0, 0, 0],
  stores: [22, 20],
  toMove: 0,
});

describe('MinimaxSearch', () => {
  it('takes the only capture at every depth', () => {
    expect(playMove(captureAvailable, 4, rules).report.captured).toBe(6);
    expect(playMove(captureAvailable, 0, rules).report.captured).toBe(0);
    const search = new MinimaxSearch({ rules });
    for (let depth = 1; depth <= 8; depth++) {
      expect(search.search(captureAvailable.toState(), { depth }).bestActions).toEqual([4]);
    }
  });

  it('scores a win at once exactly: WIN minus the plies plus the margin', () => {
    const search = new MinimaxSearch({ rules });
    const result = search.search(winAvailable.toState(), { depth: 3 });
    expect(result.bestActions).toEqual([4]);
    // Final scores 26-20 after one ply.
    expect(result.value).toBe(WIN - 1 + 6);
  });

  it('finds forced wins in endgames, and a deeper search never loses one a shallower found', () => {
    const rng = Random.fromSeed(7);
    const search = new MinimaxSearch({ rules });
    let checked = 0;
    let foundLate = 0;
    while (checked < 40) {
      const pos = endgame(rng, 8, rules);
      if (pos === null || legalActions(pos, rules).length < 2) continue;
      const exact = solveActions(pos, rules);
      if (exact === null) continue;
      const winning = [...exact].filter(([, r]) => r === 1).map(([a]) => a);
      // Known best moves: some actions win by force and some do not.
      if (winning.length === 0 || winning.length === exact.size) continue;
      checked++;
      let provenAt: number | null = null;
      for (let depth = 1; depth <= 16; depth++) {
        const result = search.search(pos.toState(), { depth });
        if (result.value > PROVEN) {
          provenAt ??= depth;
          // Every action played is a winning one.
          for (const a of result.bestActions) expect(winning).toContain(a);
        } else {
          // Once a depth has proven the win, no deeper depth may lose it.
          expect(
            provenAt,
            `position ${pos.pits}/${pos.stores}/${pos.toMove} at depth ${depth}`,
          ).toBeNull();
        }
      }
      expect(provenAt).not.toBeNull();
      if ((provenAt as number) > 1) foundLate++;
    }
    // The set is not trivial: some wins need more than one ply to see.
    expect(foundLate).toBeGreaterThan(0);
  });

  it('returns the same values and best actions with and without the transposition table', () => {
    const withTable = new MinimaxSearch({ rules });
    const withoutTable = new MinimaxSearch({ rules, ttBits: 0 });
    const tiny = new MinimaxSearch({ rules, ttBits: 4 }); // constant collisions and overwrites
    for (const pos of randomPositions(3, 60, rules)) {
      for (const depth of [1, 3, 5, 7]) {
        const a = withTable.search(pos.toState(), { depth });
        const b = withoutTable.search(pos.toState(), { depth });
        const c = tiny.search(pos.toState(), { depth });
        expect(a.value).toBe(b.value);
        expect(c.value).toBe(b.value);
        expect([...a.bestActions].sort()).toEqual([...b.bestActions].sort());
        expect([...c.bestActions].sort()).toEqual([...b.bestActions].sort());
      }
    }
  });

  it('uses the table: fewer nodes at depth 10 on average', () => {
    let nodesWith = 0;
    let nodesWithout = 0;
    for (const pos of randomPositions(4, 10, rules)) {
      nodesWith += new MinimaxSearch({ rules }).search(pos.toState(), { depth: 10 }).nodes;
      nodesWithout += new MinimaxSearch({ rules, ttBits: 0 }).search(pos.toState(), {
        depth: 10,
      }).nodes;
    }
    expect(nodesWith).toBeLessThan(nodesWithout);
  });

  it('gives every tied best action its exact value and the others less', () => {
    const search = new MinimaxSearch({ rules });
    let ties = 0;
    for (const pos of randomPositions(5, 80, rules)) {
      const result = search.search(pos.toState(), { depth: 4 });
      const exact = new MinimaxSearch({ rules, ttBits: 0 });
      for (const a of legalActions(pos, rules)) {
        // The value of each action on its own: the child searched one ply less, negated.
        const child = playMove(pos, a, rules).position;
        const childValue = childSearchValue(exact, child, 3);
        if (result.bestActions.includes(a)) expect(childValue).toBe(result.value);
        else expect(childValue).toBeLessThan(result.value);
      }
      if (result.bestActions.length > 1) ties++;
    }
    expect(ties).toBeGreaterThan(0);
  });

  it('searches by time: the answer of the deepest iteration completed, and stops on a proven win', () => {
    const search = new MinimaxSearch({ rules });
    for (const pos of randomPositions(6, 5, rules)) {
      const timed = search.search(pos.toState(), { timeMs: 20 });
      expect(timed.depth).toBeGreaterThanOrEqual(1);
      const fixed = new MinimaxSearch({ rules, ttBits: 0 }).search(pos.toState(), {
        depth: timed.depth,
      });
      expect(timed.value).toBe(fixed.value);
      expect([...timed.bestActions].sort()).toEqual([...fixed.bestActions].sort());
    }
    // A win proven at depth 1 ends the search however much time is left.
    const won = search.search(winAvailable.toState(), { timeMs: 60_000 });
    expect(won.depth).toBe(1);
    expect(won.value).toBeGreaterThan(PROVEN);
  });

  it('refuses a finished game', () => {
    // Player 0's only move does not feed player 1's empty row: no legal move, the game is over.
    const pos = position({
      pits: [1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0],
      stores: [23, 24],
      toMove: 0,
    });
    expect(legalActions(pos, rules)).toEqual([]);
    expect(() => new MinimaxSearch({ rules }).search(pos.toState(), { depth: 2 })).toThrow(
      /finished game/,
    );
  });

  it('agrees with an independent solver under every rule option', () => {
    const variants = [
      rules,
      resolveRules({ leftoverTo: 'owner' }),
      resolveRules({ captureSeedStays: true }),
    ];
    const rng = Random.fromSeed(8);
    let disagreements = 0;
    let compared = 0;
    let proven = 0;
    while (compared < 30) {
      const pos = endgame(rng, 7, rules);
      if (pos === null) continue;
      const results = variants.map((r) => {
        if (legalActions(pos, r).length === 0) return null;
        const exact = solveActions(pos, r);
        if (exact === null) return null;
        const search = new MinimaxSearch({ rules: r }).search(pos.toState(), { depth: 24 });
        return { best: Math.max(...exact.values()), value: search.value };
      });
      if (results.some((x) => x === null)) continue;
      compared++;
      for (const result of results) {
        const { best, value } = result as { best: number; value: number };
        // A proven search value's sign is the game's result under those rules.
        if (Math.abs(value) > PROVEN) {
          expect(Math.sign(value)).toBe(best);
          proven++;
        }
      }
      const bests = results.map((x) => (x as { best: number }).best);
      if (new Set(bests).size > 1) disagreements++;
    }
    // The rule options matter in some of these endgames, and most are decided within 24 plies.
    expect(disagreements).toBeGreaterThan(0);
    expect(proven).toBeGreaterThan(compared * 2);
  });

  it('rejects bad limits', () => {
    const search = new MinimaxSearch({ rules });
    expect(() => search.search(captureAvailable.toState(), { depth: 0 })).toThrow(/depth/);
    expect(() => search.search(captureAvailable.toState(), { depth: 1.5 })).toThrow(/depth/);
    expect(() => new MinimaxAgent({ rules })).toThrow(/exactly one of depth and timeMs/);
  });
});

/** The value of `pos` for the player who moved into it, searched `depth` plies (exact if over). */
function childSearchValue(search: MinimaxSearch, pos: Position, depth: number): number {
  const end = outcome(pos, rules);
  if (end !== null) {
    // Finished one ply from the root: scored as the search scores it.
    const mover = 1 - pos.toMove;
    const margin = (end.scores[mover] as number) - (end.scores[1 - mover] as number);
    return margin > 0 ? WIN - 1 + margin : margin < 0 ? -WIN + 1 + margin : 0;
  }
  // Finished games found below the child are one ply further from the real root.
  const value = -search.search(pos.toState(), { depth }).value;
  if (value > PROVEN) return value - 1;
  if (value < -PROVEN) return value + 1;
  return value;
}
