import { describe, expect, it } from 'vitest';
import { DEFAULT_RULES, START_NOTATION } from '../../env/index.ts';
import {
  describeReviewedMove,
  describeReviewSummary,
  isReviewRequest,
  PageReviewer,
  type ReviewRequest,
} from '../../web/src/game-review.ts';
import { PageSolving } from '../../web/src/page-solving.ts';

const request = (actions: number[], budgetMs = 30_000): ReviewRequest => ({
  kind: 'review',
  id: 3,
  start: START_NOTATION,
  actions,
  rules: DEFAULT_RULES,
  budgetMs,
});

describe("the page's game review", () => {
  it("reviews the moves in the worker with its own endgame table, reporting progress, and says it from the person's side", () => {
    const solving = new PageSolving();
    const reviewer = new PageReviewer(solving);
    const progress: [number, number][] = [];
    const answer = reviewer.answer(request([0, 1]), (done, total) => progress.push([done, total]));
    expect(answer).toMatchObject({ kind: 'review', id: 3 });
    expect(progress).toEqual([
      [1, 2],
      [2, 2],
    ]);
    const [first, second] = answer.review.moves;
    if (first === undefined || second === undefined) throw new Error('two moves were reviewed');
    expect(first).toMatchObject({ before: 'win', after: 'loss', error: true, best: [2] });
    expect(describeReviewedMove(first, 0, 'greedy')).toBe(
      'South (you) played S0: win → loss, lost value; best S2',
    );
    expect(describeReviewedMove(first, 1, 'greedy')).toBe(
      'South (greedy) played S0: win → loss, lost value; best S2',
    );
    expect(describeReviewedMove(second, 0, 'greedy')).toMatch(
      /^North \(greedy\) played N1: win → /,
    );
    expect(describeReviewSummary(answer.review, 1, 'greedy')).toMatch(
      /^North \(you\): 1 move, .*\. South \(greedy\): 1 move, 1 lost value \(the first: move 1\)\.$/,
    );
    // Where the budget runs out, the page says "not proven" (a reviewer of its own: the
    // first keeps what it proved; the worker's table, built once, is shared).
    const [hurried] = new PageReviewer(solving).answer(request([2], 1)).review.moves;
    expect(hurried?.before).toBe('unknown');
    if (hurried !== undefined) {
      expect(describeReviewedMove(hurried, 0, 'greedy')).toBe(
        'South (you) played S2: not proven → not proven',
      );
    }
    expect(isReviewRequest(request([2]))).toBe(true);
    expect(isReviewRequest({ id: 1, position: START_NOTATION })).toBe(false);
  });
});
