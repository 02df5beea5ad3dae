/**
 * The page's side of the perfect opponent's worker: a solver worker of its
 * own (solver-worker.js), started on the first move asked, each move a
 * request answered by id. A worker of its own, so that the perfect-play line
 * and a review never wait behind the opponent's solve.
 */
import type {
  AskPerfectMove,
  PerfectMoveAnswer,
  PerfectMoveFailure,
  PerfectMoveRequest,
} from './perfect-opponent.ts';

interface Waiting {
  readonly resolve: (answer: PerfectMoveAnswer) => void;
  readonly reject: (error: Error) => void;
}

let worker: Worker | null = null;
let lastId = 0;
const waiting = new Map<number, Waiting>();

function settle(message: PerfectMoveAnswer | PerfectMoveFailure): void {
  const asked = waiting.get(message.id);
  if (asked === undefined) return;
  waiting.delete(message.id);
  if (message.kind === 'perfect-move') asked.resolve(message);
  else asked.reject(new Error(`the perfect player failed: ${message.message}`));
}

function start(): Worker {
  const started = new Worker(new URL('./solver-worker.js', import.meta.url), { type: 'module' });
  started.addEventListener(
    'message',
    (event: MessageEvent<PerfectMoveAnswer | PerfectMoveFailure>) => settle(event.data),
  );
  started.addEventListener('error', (event) => {
    for (const asked of waiting.values())
      asked.reject(new Error(`the solver worker failed: ${event.message}`));
    waiting.clear();
    worker = null;
  });
  return started;
}

/** Asks the perfect opponent's worker for its move; rejects where the browser has no module workers. */
export const askPerfectMove: AskPerfectMove = (request) => {
  worker ??= start();
  const running = worker;
  const id = ++lastId;
  return new Promise((resolve, reject) => {
    waiting.set(id, { resolve, reject });
    const message: PerfectMoveRequest = { ...request, id };
    running.postMessage(message);
  });
};
