/**
 * The page's review panel: the game's moves with their exact values from the
 * mover's side, the moves that lost value marked with the best one, and each
 * side's summary. The review runs in a solver worker of its own
 * (solver-worker.mts, game-review.ts), started on the first review, so that
 * the perfect-play line goes on meanwhile.
 */
import { formatPosition } from '../../env/index.ts';
import {
  describeReviewedMove,
  describeReviewSummary,
  type ReviewMessage,
  type ReviewRequest,
} from './game-review.ts';
import type { GameSession } from './game-session.ts';

export interface ReviewPanelElements {
  readonly section: HTMLElement;
  readonly status: HTMLElement;
  readonly list: HTMLOListElement;
  readonly summary: HTMLElement;
}

/** The game a review was asked for: the request, and whom to describe it for. */
interface Asked {
  readonly request: ReviewRequest;
  readonly session: GameSession;
  readonly computerName: string;
}

export class ReviewPanel {
  /** The worker, started on first use; null where the browser has none. */
  #worker: Worker | null | undefined;
  #asked: Asked | null = null;
  #running = false;
  #nextId = 0;

  constructor(
    readonly elements: ReviewPanelElements,
    /** The solver's budget per position; 0 turns reviews off. */
    readonly budgetMs: number,
    /** Hears when a review starts or ends (the page's controls follow). */
    readonly onChange: () => void = () => {},
  ) {}

  /** Whether reviews can run here (a budget and module workers). */
  get available(): boolean {
    return this.budgetMs > 0 && typeof Worker !== 'undefined' && this.#worker !== null;
  }

  /** A review is being computed. */
  get running(): boolean {
    return this.#running;
  }

  /** Whether the panel shows (or is computing) the review of the session's moves as they are now. */
  covers(session: GameSession): boolean {
    const asked = this.#asked;
    return (
      asked !== null &&
      asked.session === session &&
      asked.request.actions.length === session.moves.length
    );
  }

  /** Reviews the session's moves so far (on demand, or once the game is over). */
  review(session: GameSession, computerName: string): void {
    const worker = this.#startWorker();
    if (worker === null || session.moves.length === 0) return;
    const request: ReviewRequest = {
      kind: 'review',
      id: ++this.#nextId,
      start: session.moves[0]?.before ?? formatPosition(session.position),
      actions: session.moves.map((move) => move.action),
      rules: session.rules,
      budgetMs: this.budgetMs,
    };
    this.#asked = { request, session, computerName };
    this.#running = true;
    const { section, status, list, summary } = this.elements;
    section.hidden = false;
    section.dataset.state = 'running';
    section.dataset.moves = String(request.actions.length);
    list.replaceChildren();
    summary.textContent = '';
    status.textContent = `Reviewing ${request.actions.length} moves against perfect play…`;
    worker.postMessage(request);
    this.onChange();
  }

  /** Hides the panel and forgets the review asked for (a new game, an undo). */
  clear(): void {
    this.#asked = null;
    this.#running = false;
    const { section, list, summary, status } = this.elements;
    section.hidden = true;
    delete section.dataset.state;
    list.replaceChildren();
    summary.textContent = '';
    status.textContent = '';
    this.onChange();
  }

  #startWorker(): Worker | null {
    if (this.#worker !== undefined) return this.#worker;
    this.#worker = null;
    if (this.budgetMs === 0 || typeof Worker === 'undefined') return null;
    try {
      const worker = new Worker(new URL('./solver-worker.js', import.meta.url), { type: 'module' });
      worker.addEventListener('message', (event: MessageEvent<ReviewMessage>) =>
        this.#onMessage(event.data),
      );
      worker.addEventListener('error', () => {
        this.#worker = null;
        this.#running = false;
        this.elements.section.dataset.state = 'error';
        this.elements.status.textContent = 'The review could not run in this browser.';
        this.onChange();
      });
      this.#worker = worker;
    } catch {
      // No module workers here: the page plays on without reviews.
    }
    return this.#worker;
  }

  #onMessage(message: ReviewMessage): void {
    const asked = this.#asked;
    // A review of a game (or of moves) since replaced: nothing to show.
    if (asked === null || message.id !== asked.request.id) return;
    const { section, status, list, summary } = this.elements;
    if (message.kind === 'review-progress') {
      status.textContent = `Reviewing against perfect play: move ${message.done} of ${message.total}…`;
      return;
    }
    this.#running = false;
    const { review } = message;
    const human = asked.session.human;
    list.replaceChildren(
      ...review.moves.map((move) => {
        const item = document.createElement('li');
        item.textContent = describeReviewedMove(move, human, asked.computerName);
        item.classList.toggle('mistake', move.error === true);
        item.classList.toggle('undecided', move.error === null);
        item.classList.toggle('own', move.player === human);
        Object.assign(item.dataset, {
          ply: String(move.ply),
          player: String(move.player),
          action: String(move.action),
          before: move.before,
          after: move.after,
          error: String(move.error),
          best: move.best.join(','),
        });
        return item;
      }),
    );
    summary.textContent = describeReviewSummary(review, human, asked.computerName);
    const mistakes = review.moves.filter((move) => move.error === true).length;
    status.textContent = `Perfect play's verdict on ${review.moves.length} moves (${(message.timeMs / 1000).toFixed(1)} s): ${mistakes === 0 ? 'no move lost value' : `${mistakes} lost value, marked`}.`;
    section.dataset.state = 'done';
    section.dataset.final = review.final;
    this.onChange();
  }
}
