import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  applyAction,
  DEFAULT_RULES,
  formatPosition,
  parsePosition,
  resolveRules,
  START_NOTATION,
} from '../../env/index.ts';
import { shippedBookPath } from '../../solve/book/cache/book-cache.ts';
import { openBook } from '../../solve/book/open-book.ts';
import { solve } from '../../solve/index.ts';
import {
  describePerfectPlay,
  PerfectPlay,
  type PerfectPlayAnswer,
  valueForHuman,
} from '../../web/src/perfect-play.ts';
import { smallPositions } from '../solve/positions.ts';

// Player 0's only action feeds player 1, who then wins whatever happens (test/solve/solver.test.ts).
const FORCED_LOSS = '0,0,0,0,1,0/1,0,0,1,1,1/20-23/0';
// A draw, a win and a loss for player 0 under the default, captureSeedStays and leftoverTo=owner rules.
const RULES_MATTER = '1,0,0,0,0,1/0,0,0,1,0,0/23-22/0';
const STAYS = resolveRules({ captureSeedStays: true });
const OWNER = resolveRules({ leftoverTo: 'owner' });

function ask(solver: PerfectPlay, position: string, rules = DEFAULT_RULES): PerfectPlayAnswer {
  return solver.answer({ id: 7, position, rules, budgetMs: 5000 });
}

describe("the page's perfect-play line", () => {
  it('gives the value for the player to move, as solve does, and follows the rules asked for', () => {
    const solver = new PerfectPlay();
    const answer = ask(solver, FORCED_LOSS);
    expect(answer).toMatchObject({ id: 7, position: FORCED_LOSS, toMove: 0, value: 'loss' });
    // One solver answers a game's positions, switching rule sets as asked.
    expect(
      [DEFAULT_RULES, STAYS, OWNER, DEFAULT_RULES].map(
        (rules) => ask(solver, RULES_MATTER, rules).value,
      ),
    ).toEqual(['draw', 'win', 'loss', 'draw']);
    for (const pos of smallPositions(31, 20, [4, 5, 6, 7], DEFAULT_RULES)) {
      const notation = formatPosition(pos);
      expect(ask(solver, notation).value, notation).toBe(
        solve(pos, { budget: { timeMs: 5000 } }).value,
      );
    }
  });

  it('says the value from the side of the person, whoever is to move', () => {
    const answer = ask(new PerfectPlay(), FORCED_LOSS);
    expect([valueForHuman(answer, 0), valueForHuman(answer, 1)]).toEqual(['loss', 'win']);
    expect(describePerfectPlay(answer, 0)).toBe('Perfect play says: loss for you (North wins).');
    expect(describePerfectPlay(answer, 1)).toBe('Perfect play says: win for you (North).');
    const draw = { ...answer, value: 'draw' } as const;
    expect([valueForHuman(draw, 0), valueForHuman(draw, 1)]).toEqual(['draw', 'draw']);
    expect(describePerfectPlay(draw, 1)).toBe('Perfect play says: draw.');
  });

  it('reports a position it cannot prove in its budget as not proven, never as a value', () => {
    const start = new PerfectPlay().answer({
      id: 1,
      position: '4,4,4,4,4,4/4,4,4,4,4,4/0-0/0',
      rules: DEFAULT_RULES,
      budgetMs: 50,
    });
    expect([start.value, start.budgetSpent]).toEqual(['unknown', true]);
    expect(valueForHuman(start, 1)).toBe('unknown');
    expect(describePerfectPlay(start, 0)).toMatch(/^Perfect play: not proven within 0\.\d s\.$/);
    // With captureSeedStays only endless play saves player 1 here (test/solve/solver.test.ts).
    const endless = ask(new PerfectPlay(), '0,0,0,1,0,1/1,0,0,1,1,1/21-21/1', STAYS);
    expect([endless.value, endless.budgetSpent]).toEqual(['unknown', false]);
    expect(describePerfectPlay(endless, 1)).toBe(
      'Perfect play: this position hangs on endless play.',
    );
  });

  it("gives the opening book's proven value where the book has the position, whatever the budget", () => {
    // The page's book: the package's, served as book.bin and opened from its bytes.
    const book = openBook(new Uint8Array(readFileSync(shippedBookPath())));
    const line = new PerfectPlay();
    const quick = (position: string, rules = DEFAULT_RULES) =>
      line.answer({ id: 3, position, rules, budgetMs: 50 }, book);
    // The start: won for South by S2 alone (docs/solver.md); its solve takes seconds, far over 50 ms.
    const start = quick(START_NOTATION);
    expect(start).toMatchObject({ value: 'win', source: 'book', budgetSpent: false, toMove: 0 });
    expect(describePerfectPlay(start, 0)).toBe('Perfect play says: win for you (South).');
    expect(describePerfectPlay(start, 1)).toBe('Perfect play says: loss for you (South wins).');
    // S0 throws the win away; two plies in, the book still has it.
    const afterS0 = formatPosition(applyAction(parsePosition(START_NOTATION), 0));
    expect(quick(afterS0)).toMatchObject({ value: 'win', source: 'book', toMove: 1 });
    // Other rules than the book's: the solver, which cannot prove the start in 50 ms.
    expect(quick(START_NOTATION, STAYS)).toMatchObject({ value: 'unknown', source: 'solver' });
    // A position the book does not hold: the solver, as without a book.
    expect(quick(FORCED_LOSS)).toMatchObject({ value: 'loss', source: 'solver' });
  });
});
