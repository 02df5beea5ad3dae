import { describe, expect, it } from 'vitest';
import {
  applyAction,
  DEFAULT_RULES,
  formatPosition,
  initialPosition,
  outcome,
  type Position,
  parsePosition,
  START_NOTATION,
} from '../../env/index.ts';
import {
  type ExactValues,
  GameMovesError,
  gamePositions,
  type MoveValues,
  parseMoveList,
  reviewGame,
  solve,
  solverExactValues,
} from '../../solve/index.ts';
import { bookEndgame } from './book-fixture.ts';

// The books' 16-seed table, from the user's cache (built there once when missing, about a
// minute): with it the start's solve takes a tenth of a second; with a 10-seed table built
// here, about 7 s a test.
const exact = (): ExactValues =>
  solverExactValues({ budgetMs: 60_000, endgame: bookEndgame, tableBits: 18 });

/** A game both sides play perfectly from the start: each move the lowest best action. */
function perfectGame(): number[] {
  const actions: number[] = [];
  let pos = initialPosition();
  while (outcome(pos, DEFAULT_RULES) === null) {
    const solution = solve(pos, {
      endgame: bookEndgame(),
      budget: { timeMs: 60_000 },
      tableBits: 18,
    });
    const action = solution.bestActions[0];
    if (action === undefined) throw new Error(`no best action in ${formatPosition(pos)}`);
    actions.push(action);
    pos = applyAction(pos, action);
  }
  return actions;
}

describe('game review', () => {
  it('flags action 0 from the start: the start is won only by action 2', () => {
    const review = reviewGame(
      { start: initialPosition(), actions: [0, 1, 4], rules: DEFAULT_RULES },
      exact(),
    );
    expect(review.start).toBe(START_NOTATION);
    expect(review.moves[0]).toEqual({
      ply: 0,
      player: 0,
      action: 0,
      position: START_NOTATION,
      before: 'win',
      after: 'loss',
      error: true,
      best: [2],
    });
    expect(review.moves.map((m) => m.ply)).toEqual([0, 1, 2]);
    expect(review.moves.map((m) => m.player)).toEqual([0, 1, 0]);
    // After the mistake player 1 is winning; every value here is proven.
    expect(review.moves[1]?.before).toBe('win');
    for (const move of review.moves) expect(move.error).not.toBeNull();
    expect(review.players[0]).toMatchObject({ player: 0, moves: 2, firstError: 0, undecided: 0 });
    expect(review.players[0].errors).toBeGreaterThanOrEqual(1);
    const after = gamePositions(initialPosition(), [0, 1, 4], DEFAULT_RULES).at(-1) as Position;
    expect(review.final).toBe(formatPosition(after));
    expect(review.outcome).toBeNull();
  });

  it('flags nothing in a game both sides play perfectly, and every value is proven', () => {
    const actions = perfectGame();
    const review = reviewGame({ start: initialPosition(), actions, rules: DEFAULT_RULES }, exact());
    expect(review.moves).toHaveLength(actions.length);
    for (const move of review.moves) {
      expect(move.error, `ply ${move.ply}`).toBe(false);
      expect(move.best, `ply ${move.ply}`).toContain(move.action);
      expect(move.after).toBe(move.before);
    }
    // The start is a first-player win, so player 0 wins every line of perfect play.
    expect(review.moves[0]?.before).toBe('win');
    expect(review.outcome?.winner).toBe(0);
    for (const player of review.players) {
      expect(player).toMatchObject({ errors: 0, firstError: null, undecided: 0 });
    }
    expect(review.players[0].moves + review.players[1].moves).toBe(actions.length);
  });

  it("takes a move's value from the next position, or from the result, where the oracle lacks it", () => {
    const actions = perfectGame();
    const positions = gamePositions(initialPosition(), actions, DEFAULT_RULES);
    const truth = exact();
    // An oracle that knows positions' values but none of their moves'.
    const valuesOnly: ExactValues = (pos, rules) => {
      const known = truth(pos, rules);
      return { value: known.value, moves: known.moves.map((m) => ({ ...m, value: 'unknown' })) };
    };
    const review = reviewGame(
      { start: initialPosition(), actions, rules: DEFAULT_RULES },
      valuesOnly,
    );
    expect(review.moves.map((m) => m.after)).toEqual(review.moves.map((m) => m.before));
    expect(review.moves.every((m) => m.error === false)).toBe(true);
    // The best moves need each move's value: only the one played is known (and a lost
    // position's moves all keep its value).
    for (const move of review.moves) {
      if (move.before !== 'loss') expect(move.best).toEqual([move.action]);
    }
    // An oracle that knows nothing: only the last move, which ends the game, has a value.
    let asked = 0;
    const nothing: ExactValues = (pos, rules): MoveValues => {
      asked++;
      expect(rules).toBe(DEFAULT_RULES);
      expect(outcome(pos, rules)).toBeNull();
      return { value: 'unknown', moves: [] };
    };
    const blind = reviewGame({ start: initialPosition(), actions, rules: DEFAULT_RULES }, nothing);
    expect(asked).toBe(actions.length);
    const last = blind.moves.at(-1);
    expect(last?.after).toBe(last?.player === blind.outcome?.winner ? 'win' : 'loss');
    expect(blind.moves.slice(0, -1).every((m) => m.after === 'unknown' && m.error === null)).toBe(
      true,
    );
    expect(blind.moves.every((m) => m.best.length === 0 || m.before === 'win')).toBe(true);
    expect(positions).toHaveLength(actions.length + 1);
  });

  it('numbers the moves from the ply given, and judges only those from fromPly on', () => {
    const opening = [2, 0];
    const start = gamePositions(initialPosition(), opening, DEFAULT_RULES).at(-1) as Position;
    const asked: string[] = [];
    const truth = exact();
    const counting: ExactValues = (pos, rules) => {
      asked.push(formatPosition(pos));
      return truth(pos, rules);
    };
    const progress: [number, number][] = [];
    const review = reviewGame(
      { start, actions: [1, 3, 0], rules: DEFAULT_RULES, firstPly: 2, fromPly: 3 },
      counting,
      (done, total) => progress.push([done, total]),
    );
    expect(review.moves.map((m) => m.ply)).toEqual([3, 4]);
    expect(review.start).toBe(formatPosition(start));
    expect(asked[0]).toBe(review.moves[0]?.position);
    expect(progress).toEqual([
      [1, 2],
      [2, 2],
    ]);
  });

  it('refuses moves that are not actions, illegal moves and moves after the end, naming the ply', () => {
    expect(parseMoveList('2, 0,5')).toEqual([2, 0, 5]);
    expect(() => parseMoveList('2,0,x')).toThrow(
      new GameMovesError(
        "the move at ply 2 is 'x': expected an action 0..5 (the mover's pits, left to right)",
      ),
    );
    expect(() => parseMoveList('2,,1')).toThrow(/^the move at ply 1 is '': expected an action/);
    expect(() => parseMoveList('6')).toThrow(/^the move at ply 0 is '6'/);
    expect(() => parseMoveList('')).toThrow(
      'no moves: expected a comma-separated list of actions 0..5',
    );
    expect(() => parseMoveList(Array(2001).fill('2').join(','))).toThrow(
      '2001 moves: at most 2000 are reviewed',
    );
    const sparse = parsePosition('0,0,0,0,1,0/1,0,0,1,1,1/20-23/0');
    expect(() => gamePositions(sparse, [0], DEFAULT_RULES)).toThrow(
      'the move at ply 0, action 0, is illegal in 0,0,0,0,1,0/1,0,0,1,1,1/20-23/0 (empty pit); legal actions: 4',
    );
    const won = parsePosition('1,0,0,0,1,0/0,0,0,0,0,0/23-23/0');
    expect(() => gamePositions(won, [0], DEFAULT_RULES, 7)).toThrow(
      'the move at ply 7 (action 0) comes after the game ended in 1,0,0,0,1,0/0,0,0,0,0,0/23-23/0',
    );
    expect(() =>
      reviewGame({ start: initialPosition(), actions: [2, 9], rules: DEFAULT_RULES }, exact()),
    ).toThrow(/^the move at ply 1, action 9, is illegal in .* \(not an action\); legal actions: /);
  });
});
