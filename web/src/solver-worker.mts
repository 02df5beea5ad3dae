/**
 * The page's solver, off the main thread: answers each PerfectPlayRequest
 * posted to it with a PerfectPlayAnswer (perfect-play.ts: the opening book's
 * value where it has the position, else a solve), each ReviewRequest
 * with progress messages and then the game's review (game-review.ts), and
 * each PerfectMoveRequest with the perfect player's move (perfect-opponent.ts).
 * A solve runs without yielding; the page sends the next position only once
 * the answer came, so the questions never pile up, and runs reviews and the
 * perfect opponent in workers of their own, so that neither holds up the
 * perfect-play line.
 */
import { isReviewRequest, PageReviewer, type ReviewMessage } from './game-review.ts';
import { fetchPageBook, PageSolving } from './page-solving.ts';
import {
  isPerfectMoveRequest,
  PagePerfectPlayer,
  type PerfectMoveFailure,
} from './perfect-opponent.ts';
import { PerfectPlay, type PerfectPlayRequest } from './perfect-play.ts';

const solving = new PageSolving(fetchPageBook);
const solver = new PerfectPlay();
const reviewer = new PageReviewer(solving);
const perfect = new PagePerfectPlayer(solving);

self.addEventListener('message', (event: MessageEvent<unknown>) => {
  const request = event.data;
  if (isPerfectMoveRequest(request)) {
    perfect.answer(request).then(
      (answer) => self.postMessage(answer),
      (error: unknown) => {
        const failure: PerfectMoveFailure = {
          kind: 'perfect-move-failed',
          id: request.id,
          message: error instanceof Error ? error.message : String(error),
        };
        self.postMessage(failure);
      },
    );
    return;
  }
  if (isReviewRequest(request)) {
    const progress = (done: number, total: number): void => {
      const message: ReviewMessage = { kind: 'review-progress', id: request.id, done, total };
      self.postMessage(message);
    };
    // The book first: a review of the opening then reads its values instead of solving them.
    void solving.loadBook().then(() => self.postMessage(reviewer.answer(request, progress)));
    return;
  }
  // The book first: the opening's values are read from it rather than solved within the budget.
  const asked = request as PerfectPlayRequest;
  void solving
    .loadBook()
    .then(() => self.postMessage(solver.answer(asked, solving.book(asked.rules))));
});
