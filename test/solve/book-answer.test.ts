import { describe, expect, it } from 'vitest';
import { applyAction, DEFAULT_RULES, initialPosition } from '../../env/index.ts';
import { reviewOracle } from '../../eval/review-oracle.ts';
import { bookFirst, bookSolution } from '../../solve/book/answer.ts';
import { describeSolution, type MoveValues } from '../../solve/index.ts';
import { BOOK_TEST_MS, smallBook } from './book-fixture.ts';

describe('answers from the opening book', { timeout: BOOK_TEST_MS }, () => {
  it('give a book position as the solver would report it, with nothing searched', () => {
    const start = initialPosition();
    const result = bookSolution(smallBook(1), start.stateView);
    expect(result).not.toBeNull();
    const solution = describeSolution(start, result as NonNullable<typeof result>);
    expect(solution).toMatchObject({
      value: 'win',
      bestActions: [2],
      nodes: 0,
      complete: true,
      budgetSpent: false,
    });
    expect(solution.moves.map((m) => m.value)).toEqual([
      'loss',
      'loss',
      'win',
      'loss',
      'loss',
      'loss',
    ]);
    // Two plies in: not in a book of one.
    const deeper = applyAction(applyAction(start, 2), 0);
    expect(bookSolution(smallBook(1), deeper.stateView)).toBeNull();
  });

  it("come first in the review's oracle: the start is a win with no time to solve it", () => {
    const start = initialPosition();
    const withBook = reviewOracle({ budgetMs: 1, book: () => smallBook(1) });
    expect(withBook(start, DEFAULT_RULES).value).toBe('win');
    const without = reviewOracle({ budgetMs: 1, book: () => null });
    expect(without(start, DEFAULT_RULES).value).toBe('unknown');
    // Out of the book, the rest of the oracle answers.
    const asked: string[] = [];
    const rest = (): MoveValues => {
      asked.push('rest');
      return { value: 'unknown', moves: [] };
    };
    const oracle = bookFirst(() => smallBook(1), rest);
    oracle(start, DEFAULT_RULES);
    expect(asked).toEqual([]);
    oracle(applyAction(applyAction(start, 2), 0), DEFAULT_RULES);
    expect(asked).toEqual(['rest']);
  });
});
