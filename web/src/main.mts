/**
 * The page: renders the board with the person's row at the bottom (left to
 * right, the other row on top right to left, so sowing runs anticlockwise for
 * either side), lets the person lift a legal pit by touch, mouse or keyboard,
 * animates each move lap by lap and lets the computer reply. DOM code lives in
 * this .mts file, type-checked with the DOM library by web/tsconfig.json; the
 * game itself (game-session.ts, players.ts, opponents.ts) has no DOM. The
 * exact solver runs in a Web Worker (solver-worker.mts) and its verdict on
 * each position appears as the "perfect play says" line: the opening book's
 * where the position is in it, else the solver's when it proves the position
 * within a short budget.
 */

import { PolicyAgent } from '../../agents/network/policy-agent.ts';
import {
  DEFAULT_RULES,
  describeRules,
  formatPosition,
  type Player,
  type Position,
} from '../../env/index.ts';
import { type BrowserPolicy, decodeBrowserPolicy } from '../../models/export/browser-policy.ts';
import { REVIEW_MS } from './game-review.ts';
import {
  describeLap,
  describeMove,
  describeResult,
  formatSigned,
  GameSession,
  type MoveRecord,
  PLAYER_NAMES,
  pitLabel,
} from './game-session.ts';
import { choiceOf, createComputer, OPPONENTS, opponentOf } from './opponents.ts';
import { askPerfectMove } from './perfect-moves.mts';
import {
  describePerfectPlay,
  PERFECT_PLAY_MS,
  type PerfectPlayAnswer,
  type PerfectPlayRequest,
  valueForHuman,
} from './perfect-play.ts';
import { ReviewPanel } from './review-panel.mts';

/** Laps listed in the relay view (relays of over a thousand laps exist). */
const MAX_LAPS_LISTED = 200;
/** An animated move takes at most about this long, however many laps it has. */
const MAX_ANIMATION_MS = 4000;
const MAX_DOTS = 24;

function element<T extends HTMLElement>(id: string): T {
  const found = document.getElementById(id);
  if (found === null) throw new Error(`the page has no #${id}`);
  return found as T;
}

const app = element<HTMLElement>('app');
const board = element<HTMLElement>('board');
const statusLine = element<HTMLParagraphElement>('status');
const resultLine = element<HTMLParagraphElement>('result');
const lapList = element<HTMLOListElement>('laps');
const moveList = element<HTMLOListElement>('moves');
const opponentSelect = element<HTMLSelectElement>('opponent');
const strengthSelect = element<HTMLSelectElement>('strength');
const sideSelect = element<HTMLSelectElement>('side');
const newGameButton = element<HTMLButtonElement>('new-game');
const undoButton = element<HTMLButtonElement>('undo');
const policyInfo = element<HTMLParagraphElement>('policy-info');
const rulesInfo = element<HTMLElement>('rules-info');
const evaluation = element<HTMLElement>('evaluation');
const perfectPlayLine = element<HTMLParagraphElement>('perfect-play');
const reviewButton = element<HTMLButtonElement>('review-game');

const params = new URLSearchParams(location.search);
/** Milliseconds per lap of the relay animation; `?speed=0` shows moves at once. */
const lapDelay = Math.max(0, Number(params.get('speed') ?? '350') || 0);
/** The solver's budget per position in milliseconds; `?solve=0` turns the line off. */
const solveMs = Math.max(0, Number(params.get('solve') ?? PERFECT_PLAY_MS) || 0);
/** The review's budget per position in milliseconds; `?review=0` turns reviews off. */
const reviewMs = Math.max(0, Number(params.get('review') ?? REVIEW_MS) || 0);
const reviewPanel = new ReviewPanel(
  {
    section: element<HTMLElement>('review'),
    status: element<HTMLParagraphElement>('review-status'),
    list: element<HTMLOListElement>('review-moves'),
    summary: element<HTMLParagraphElement>('review-summary'),
  },
  reviewMs,
  () => updateControls(),
);

const pitButtons: HTMLButtonElement[] = [];
const storeCounts: HTMLElement[] = [];

let policy: BrowserPolicy | null = null;
let session: GameSession | null = null;
/** The network's value head, when the opponent is the policy. */
let evaluator: PolicyAgent | null = null;
/** Bumped by every new game and undo, so a running animation or search of the old one stops. */
let generation = 0;
let busy = false;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The board from `human`'s side: their row at the bottom, their store on the right. */
function buildBoard(human: Player): void {
  const top = (1 - human) as Player;
  const store = (player: Player) => {
    const box = document.createElement('div');
    box.className = 'store';
    box.id = `store-${player}`;
    box.dataset.player = String(player);
    const name = document.createElement('span');
    name.className = 'name';
    name.textContent = `${PLAYER_NAMES[player]} store${player === human ? ' (you)' : ''}`;
    const count = document.createElement('span');
    count.className = 'count';
    count.textContent = '0';
    box.append(name, count);
    storeCounts[player] = count;
    return box;
  };
  const row = (player: Player, leftToRight: boolean) => {
    const div = document.createElement('div');
    div.className = `row ${player === human ? 'own' : 'other'}`;
    div.dataset.player = String(player);
    const actions = [0, 1, 2, 3, 4, 5];
    for (const action of leftToRight ? actions : actions.reverse()) {
      const pit = 6 * player + action;
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'pit';
      button.dataset.pit = String(pit);
      button.dataset.action = String(action);
      button.disabled = true;
      button.setAttribute(
        'aria-label',
        `${pitLabel(pit)}: ${PLAYER_NAMES[player]}'s action ${action} (engine pit ${pit})`,
      );
      button.innerHTML = '<span class="dots"></span><span class="count">4</span>';
      const number = document.createElement('span');
      number.className = 'number';
      number.textContent = pitLabel(pit);
      button.append(number);
      button.addEventListener('click', () => void onPitClick(pit));
      pitButtons[pit] = button;
      div.append(button);
    }
    return div;
  };
  const rows = document.createElement('div');
  rows.className = 'rows';
  rows.append(row(top, false), row(human, true));
  board.replaceChildren(store(top), rows, store(human));
  board.dataset.bottom = String(human);
}

function showPits(pits: readonly number[], stores: readonly number[]): void {
  pits.forEach((seeds, pit) => {
    const button = pitButtons[pit] as HTMLButtonElement;
    (button.querySelector('.count') as HTMLElement).textContent = String(seeds);
    const dots = button.querySelector('.dots') as HTMLElement;
    dots.replaceChildren(
      ...Array.from({ length: Math.min(seeds, MAX_DOTS) }, () => {
        const dot = document.createElement('span');
        dot.className = 'dot';
        return dot;
      }),
    );
  });
  stores.forEach((seeds, player) => {
    (storeCounts[player] as HTMLElement).textContent = String(seeds);
  });
}

const MARKS = ['lifted', 'last', 'played', 'captured'] as const;

/** Marks pits (`lifted`, `last` during the relay; `played`, `captured` after it), with an optional tag text. */
function highlight(marks: Partial<Record<(typeof MARKS)[number], [number, string?] | null>>): void {
  for (const button of pitButtons) {
    button.classList.remove(...MARKS);
    delete button.dataset.tag;
  }
  for (const [name, mark] of Object.entries(marks)) {
    if (!mark) continue;
    const button = pitButtons[mark[0]];
    button?.classList.add(name);
    if (button && mark[1] !== undefined) button.dataset.tag = mark[1];
  }
}

/** The marks of a finished move: which pit was played, and where it captured from. */
function markMove(move: MoveRecord | undefined): void {
  if (!move) {
    highlight({});
    return;
  }
  const captured = move.capturedFrom;
  highlight({
    played: [move.pit, move.by === 'human' ? 'your move' : 'last move'],
    captured: captured !== null && move.captured > 0 ? [captured, `−${move.captured}`] : null,
  });
}

/** Enables exactly the pits the person may lift now. */
function updateControls(): void {
  const game = session;
  const legal = game?.humanToMove && !busy ? game.legal : [];
  const offset = game ? game.human * 6 : 0;
  pitButtons.forEach((button, pit) => {
    const isLegal = pit >= offset && pit < offset + 6 && legal.includes(pit - offset);
    button.disabled = !isLegal;
    button.classList.toggle('legal', isLegal);
  });
  app.dataset.busy = String(busy);
  undoButton.disabled = !game?.moves.some((move) => move.by === 'human');
  reviewButton.hidden = !reviewPanel.available;
  reviewButton.disabled =
    !game || game.moves.length === 0 || reviewPanel.running || reviewPanel.covers(game);
  if (game) {
    board.dataset.position = game.moves.at(-1)?.after ?? '4,4,4,4,4,4/4,4,4,4,4,4/0-0/0';
    board.dataset.toMove = String(game.position.toMove);
    board.dataset.turn = game.result ? 'over' : game.humanToMove && !busy ? 'human' : 'computer';
  }
}

function setStatus(text: string): void {
  statusLine.textContent = text;
}

function computerName(): string {
  return session?.computer.name ?? '';
}

/** The value head's verdict from the person's side, or the actual result once the game is over. */
async function showEvaluation(position: Position, game: number): Promise<void> {
  const current = session;
  if (evaluator === null || current === null) {
    evaluation.hidden = true;
    return;
  }
  let forHuman: number;
  const result = current.result;
  if (result) {
    forHuman = result.winner === null ? 0 : result.winner === current.human ? 1 : -1;
  } else {
    const value = evaluator.estimateValue(position, current.rules);
    if (game !== generation) return;
    forHuman = position.toMove === current.human ? value : -value;
  }
  const clamped = Math.max(-1, Math.min(1, forHuman));
  evaluation.hidden = false;
  evaluation.dataset.value = String(forHuman);
  evaluation.classList.toggle('behind', clamped < 0);
  const fill = evaluation.querySelector<HTMLElement>('.fill');
  if (fill) {
    fill.style.left = `${50 + Math.min(0, clamped) * 50}%`;
    fill.style.width = `${Math.abs(clamped) * 50}%`;
  }
  const reading = evaluation.querySelector('.reading');
  if (reading) {
    reading.textContent = result ? `${formatSigned(forHuman)} (final)` : formatSigned(forHuman);
  }
}

/** The solver's worker, started on first use; null where the browser has none or it is off. */
let solverWorker: Worker | null | undefined;
/** The request the worker is solving, and the latest position asked for meanwhile. */
let solving: PerfectPlayRequest | null = null;
let nextRequest: PerfectPlayRequest | null = null;
let requestId = 0;

function startSolver(): Worker | null {
  if (solverWorker !== undefined) return solverWorker;
  solverWorker = null;
  if (solveMs === 0 || typeof Worker === 'undefined') return null;
  try {
    const worker = new Worker(new URL('./solver-worker.js', import.meta.url), { type: 'module' });
    worker.addEventListener('message', (event: MessageEvent<PerfectPlayAnswer>) =>
      onPerfectPlay(event.data),
    );
    worker.addEventListener('error', () => {
      solverWorker = null;
      perfectPlayLine.hidden = true;
    });
    solverWorker = worker;
  } catch {
    // No module workers here: the page plays on without the line.
  }
  return solverWorker;
}

/**
 * Asks the solver about the position now on the board. One solve runs at a
 * time; a position asked for meanwhile waits, and only the latest one does.
 */
function askPerfectPlay(position: Position): void {
  const current = session;
  const worker = startSolver();
  if (current === null || worker === null || current.result !== null) {
    perfectPlayLine.hidden = true;
    nextRequest = null;
    return;
  }
  const notation = current.moves.at(-1)?.after ?? formatPosition(position);
  perfectPlayLine.hidden = false;
  perfectPlayLine.dataset.position = notation;
  perfectPlayLine.dataset.value = 'pending';
  delete perfectPlayLine.dataset.source;
  perfectPlayLine.textContent = 'Perfect play: solving…';
  nextRequest = { id: ++requestId, position: notation, rules: current.rules, budgetMs: solveMs };
  if (solving === null) sendNext(worker);
}

function sendNext(worker: Worker): void {
  solving = nextRequest;
  nextRequest = null;
  if (solving !== null) worker.postMessage(solving);
}

function onPerfectPlay(answer: PerfectPlayAnswer): void {
  solving = null;
  const current = session;
  if (current !== null && answer.position === perfectPlayLine.dataset.position) {
    perfectPlayLine.dataset.value = valueForHuman(answer, current.human);
    perfectPlayLine.dataset.source = answer.source;
    perfectPlayLine.dataset.ms = String(answer.timeMs);
    perfectPlayLine.textContent = describePerfectPlay(answer, current.human);
  }
  if (solverWorker) sendNext(solverWorker);
}

function logMove(move: MoveRecord): void {
  const item = document.createElement('li');
  item.textContent = describeMove(move, computerName());
  Object.assign(item.dataset, {
    ply: String(move.ply),
    player: String(move.player),
    by: move.by,
    action: String(move.action),
    pit: String(move.pit),
    before: move.before,
    after: move.after,
  });
  moveList.append(item);
  // Scroll the log only: scrolling the item into view would move the whole page on a phone.
  moveList.scrollTop = moveList.scrollHeight;
}

function listLaps(move: MoveRecord | undefined): HTMLLIElement[] {
  if (!move) {
    lapList.replaceChildren();
    delete lapList.dataset.move;
    return [];
  }
  const shown = move.laps.slice(0, MAX_LAPS_LISTED);
  const items = shown.map((lap, i) => {
    const item = document.createElement('li');
    item.textContent = describeLap(lap, i);
    return item;
  });
  const extra: HTMLLIElement[] = [];
  if (move.laps.length > shown.length) {
    const more = document.createElement('li');
    more.textContent = `… ${move.laps.length - shown.length} more laps`;
    extra.push(more);
  }
  const end = document.createElement('li');
  end.className = 'end';
  end.textContent =
    move.captured > 0 && move.capturedFrom !== null
      ? `Captured ${move.captured} seed${move.captured === 1 ? '' : 's'} from ${pitLabel(move.capturedFrom)}`
      : 'No capture';
  lapList.replaceChildren(...items, ...extra, end);
  lapList.dataset.move = String(move.ply);
  return items;
}

/** Shows a move lap by lap, then its capture; false if a new game or an undo came meanwhile. */
async function animate(move: MoveRecord, game: number): Promise<boolean> {
  logMove(move);
  const items = listLaps(move);
  const before = move.before.split('/')[2]?.split('-').map(Number) ?? [0, 0];
  const delay = lapDelay > 0 ? Math.min(lapDelay, MAX_ANIMATION_MS / move.laps.length) : 0;
  const who = `${PLAYER_NAMES[move.player]} (${move.by === 'human' ? 'you' : computerName()})`;
  if (delay > 0) {
    for (const [i, lap] of move.laps.entries()) {
      setStatus(
        `${who} plays action ${move.action} (${pitLabel(move.pit)}): lap ${i + 1} of ${move.laps.length}`,
      );
      showPits(lap.pitsAfter, before);
      highlight({ lifted: [lap.from], last: [lap.end] });
      items[i - 1]?.classList.remove('current');
      items[i]?.classList.add('current');
      await sleep(delay);
      if (game !== generation) return false;
    }
  }
  showPits(move.position.pits, move.position.stores);
  markMove(move);
  askPerfectPlay(move.position);
  await showEvaluation(move.position, game);
  return game === generation;
}

function showResult(): void {
  const game = session;
  const result = game?.result;
  for (const player of [0, 1]) element(`store-${player}`).classList.remove('winner');
  if (!game || !result) {
    resultLine.hidden = true;
    delete resultLine.dataset.scores;
    return;
  }
  resultLine.hidden = false;
  resultLine.textContent = describeResult(result, game.human);
  resultLine.dataset.scores = `${result.scores[0]}-${result.scores[1]}`;
  resultLine.dataset.winner = result.winner === null ? 'draw' : String(result.winner);
  showPits(game.position.pits, game.position.stores);
  if (result.winner !== null) element(`store-${result.winner}`).classList.add('winner');
  setStatus(`Game over after ${game.moves.length} moves.`);
  // Once the game is over, its review: every move's value, the mistakes marked.
  if (!reviewPanel.covers(game)) reviewPanel.review(game, computerName());
}

function promptHuman(game: GameSession): void {
  setStatus(
    `Your turn: you are ${PLAYER_NAMES[game.human]} (bottom row). Tap a glowing pit or press its number.`,
  );
}

/** Plays the computer's moves until it is the person's turn or the game is over. */
async function runComputer(game: number): Promise<void> {
  const current = session;
  if (!current) return;
  while (current.computerToMove) {
    busy = true;
    updateControls();
    setStatus(`${PLAYER_NAMES[current.position.toMove]} (${computerName()}) is thinking…`);
    // Let the status paint before a search that may take a moment.
    await sleep(lapDelay > 0 ? 120 : 0);
    if (game !== generation) return;
    let move: MoveRecord;
    try {
      move = await current.playComputer();
    } catch (error) {
      // An undo or a new game while an asynchronous agent thought: that answer is stale.
      if (game !== generation) return;
      throw error;
    }
    if (game !== generation) return;
    if (!(await animate(move, game))) return;
  }
  busy = false;
  if (current.result) showResult();
  else promptHuman(current);
  updateControls();
}

async function onPitClick(pit: number): Promise<void> {
  const current = session;
  if (!current || busy || !current.humanToMove) return;
  const action = pit - current.human * 6;
  if (!current.legal.includes(action)) return;
  const game = generation;
  busy = true;
  updateControls();
  const move = current.playHuman(action);
  if (!(await animate(move, game))) return;
  await runComputer(game);
}

/** Keys 0..5 play that action; arrows move between the playable pits (Enter or Space lifts). */
function onKey(event: KeyboardEvent): void {
  const target = event.target as HTMLElement | null;
  if (event.altKey || event.ctrlKey || event.metaKey) return;
  if (target?.closest('select, input, textarea')) return;
  const current = session;
  if (!current) return;
  if (/^[0-5]$/.test(event.key)) {
    event.preventDefault();
    void onPitClick(current.human * 6 + Number(event.key));
    return;
  }
  if (event.key !== 'ArrowLeft' && event.key !== 'ArrowRight') return;
  const playable = [...board.querySelectorAll<HTMLButtonElement>('.row.own .pit:enabled')];
  if (playable.length === 0) return;
  event.preventDefault();
  const at = playable.indexOf(document.activeElement as HTMLButtonElement);
  const step = event.key === 'ArrowRight' ? 1 : -1;
  const next =
    at < 0 ? (step > 0 ? 0 : playable.length - 1) : (at + step + playable.length) % playable.length;
  playable[next]?.focus();
}

function showStrengths(): void {
  const choice = opponentOf(opponentSelect.value);
  strengthSelect.replaceChildren(
    ...choice.strengths.map((strength) => new Option(strength.label, strength.spec)),
  );
  strengthSelect.value = choice.strengths[choice.defaultStrength]?.spec ?? '';
  strengthSelect.disabled = choice.strengths.length < 2;
}

async function newGame(): Promise<void> {
  generation++;
  const game = generation;
  busy = false;
  const rules = policy?.rules ?? DEFAULT_RULES;
  const human = (sideSelect.value === '1' ? 1 : 0) as Player;
  const spec = strengthSelect.value;
  const computer = await createComputer(spec, rules, generation, policy, askPerfectMove);
  if (game !== generation) return;
  session = new GameSession(human, computer, rules);
  // The value head's bar, against the opponents that use the network.
  evaluator =
    choiceOf(spec).needsPolicy && policy !== null
      ? new PolicyAgent('policy', policy.weights, policy.observation, rules)
      : null;
  buildBoard(human);
  moveList.replaceChildren();
  reviewPanel.clear();
  listLaps(undefined);
  showResult();
  showPits(session.position.pits, session.position.stores);
  highlight({});
  app.dataset.human = String(human);
  app.dataset.opponent = session.computer.name;
  rulesInfo.textContent = `Rules: ${describeRules(rules)}. A store of 25 wins.`;
  askPerfectPlay(session.position);
  void showEvaluation(session.position, game).then(() => runComputer(game));
}

function undo(): void {
  const current = session;
  if (!current?.undo()) return;
  generation++;
  busy = false;
  while (moveList.children.length > current.moves.length) moveList.lastElementChild?.remove();
  reviewPanel.clear();
  const last = current.moves.at(-1);
  listLaps(last);
  showResult();
  showPits(current.position.pits, current.position.stores);
  markMove(last);
  promptHuman(current);
  updateControls();
  askPerfectPlay(current.position);
  void showEvaluation(current.position, generation);
}

async function loadPolicy(): Promise<void> {
  try {
    const response = await fetch('policy.json', { cache: 'no-store' });
    if (response.status === 404) {
      app.dataset.policy = 'none';
      policyInfo.textContent =
        'No policy is served (start the page with `ayoayo web --policy PATH`): search agents only.';
    } else if (!response.ok) {
      throw new Error(`HTTP ${response.status}`);
    } else {
      policy = decodeBrowserPolicy(await response.json());
      app.dataset.policy = 'loaded';
      const source = policy.source;
      const { encoding, lookahead, lookaheadEncoding } = policy.observation;
      const boards = lookaheadEncoding === 'counts' ? '' : ` of ${lookaheadEncoding} boards`;
      policyInfo.textContent = `Policy: ${source?.run ? `run ${source.run}, iteration ${source.iteration}` : 'unknown run'} — observation ${encoding}${lookahead ? ` + lookahead${boards}` : ''}, hidden layers ${policy.weights.hidden.map((h) => h.outputSize).join('×')}.`;
    }
  } catch (error) {
    app.dataset.policy = 'error';
    policyInfo.textContent = `The policy could not be loaded (${(error as Error).message}): search agents only.`;
  }
  opponentSelect.replaceChildren(
    ...OPPONENTS.map((choice) => {
      const option = new Option(choice.label, choice.kind);
      option.disabled = choice.needsPolicy && policy === null;
      return option;
    }),
  );
  opponentSelect.value = policy === null ? 'minimax' : 'policy';
  showStrengths();
}

opponentSelect.addEventListener('change', showStrengths);
newGameButton.addEventListener('click', () => void newGame());
undoButton.addEventListener('click', undo);
reviewButton.addEventListener('click', () => {
  if (session !== null) reviewPanel.review(session, computerName());
});
document.addEventListener('keydown', onKey);
buildBoard(0);
await loadPolicy();
await newGame();
