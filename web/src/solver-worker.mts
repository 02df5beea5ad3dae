/**
 * The page's solver, off the main thread: answers each PerfectPlayRequest
 * posted to it with a PerfectPlayAnswer (perfect-play.ts). A solve runs to its
 * short budget without yielding; the page sends the next position only once
 * the answer came, so the questions never pile up.
 */
import { PerfectPlay, type PerfectPlayRequest } from './perfect-play.ts';

const solver = new PerfectPlay();

self.addEventListener('message', (event: MessageEvent<PerfectPlayRequest>) => {
  self.postMessage(solver.answer(event.data));
});
