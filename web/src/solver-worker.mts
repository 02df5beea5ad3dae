/**
 * The page's solver, off the main thread: answers each PerfectPlayRequest
 * posted to it with a PerfectPlayAnswer (perfect-play.ts), and each
 * ReviewRequest with progress messages and then the game's review
 * (game-review.ts). A solve runs to its short budget without yielding; the
 * page sends the next position only once the answer came, so the questions
 * never pile up, and runs reviews in a worker of their own, so that a review
 * never holds up the perfect-play line.
 */
import { isReviewRequest, PageReviewer, type ReviewMessage } from './game-review.ts';
import { PerfectPlay, type PerfectPlayRequest } from './perfect-play.ts';

const solver = new PerfectPlay();
const reviewer = new PageReviewer();

self.addEventListener('message', (event: MessageEvent<unknown>) => {
  const request = event.data;
  if (isReviewRequest(request)) {
    const progress = (done: number, total: number): void => {
      const message: ReviewMessage = { kind: 'review-progress', id: request.id, done, total };
      self.postMessage(message);
    };
    self.postMessage(reviewer.answer(request, progress));
    return;
  }
  self.postMessage(solver.answer(request as PerfectPlayRequest));
});
