/**
 * The page: renders the board (North's row on top, right to left; South's row
 * at the bottom, left to right, so sowing runs anticlockwise), lets the person
 * click a legal pit, animates each move lap by lap and lets the computer reply.
 * DOM code lives in this .mts file, type-checked with the DOM library by
 * web/tsconfig.json; the game itself (game-session.ts, players.ts) has no DOM.
 */
import { DEFAULT_RULES, type Player, type Rules } from '../../env/index.ts';
import { type BrowserPolicy, decodeBrowserPolicy } from '../../models/export/browser-policy.ts';
import {
  describeLap,
  describeMove,
  describeResult,
  GameSession,
  type MoveRecord,
  PLAYER_NAMES,
} from './game-session.ts';
import { type ComputerPlayer, MinimaxPlayer, PolicyPlayer } from './players.ts';

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
const sideSelect = element<HTMLSelectElement>('side');
const newGameButton = element<HTMLButtonElement>('new-game');
const policyInfo = element<HTMLParagraphElement>('policy-info');
const rulesInfo = element<HTMLElement>('rules-info');

const params = new URLSearchParams(location.search);
/** Milliseconds per lap of the relay animation; `?speed=0` shows moves at once. */
const lapDelay = Math.max(0, Number(params.get('speed') ?? '350') || 0);

const pitButtons: HTMLButtonElement[] = [];
const storeCounts: HTMLElement[] = [];

let policy: BrowserPolicy | null = null;
let session: GameSession | null = null;
/** Bumped by every new game, so a running animation of the old one stops. */
let generation = 0;
let busy = false;

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

function buildBoard(): void {
  const store = (player: Player) => {
    const box = document.createElement('div');
    box.className = 'store';
    box.id = `store-${player}`;
    const name = document.createElement('span');
    name.className = 'name';
    name.textContent = `${PLAYER_NAMES[player]} store`;
    const count = document.createElement('span');
    count.className = 'count';
    count.textContent = '0';
    box.append(name, count);
    storeCounts[player] = count;
    return box;
  };
  const row = (pits: number[], side: string) => {
    const div = document.createElement('div');
    div.className = `row ${side}`;
    for (const pit of pits) {
      const button = document.createElement('button');
      button.type = 'button';
      button.className = 'pit';
      button.dataset.pit = String(pit);
      button.disabled = true;
      button.setAttribute('aria-label', `pit ${pit}`);
      button.innerHTML = '<span class="dots"></span><span class="count">4</span>';
      const number = document.createElement('span');
      number.className = 'number';
      number.textContent = String(pit);
      button.append(number);
      button.addEventListener('click', () => void onPitClick(pit));
      pitButtons[pit] = button;
      div.append(button);
    }
    return div;
  };
  const rows = document.createElement('div');
  rows.className = 'rows';
  rows.append(row([11, 10, 9, 8, 7, 6], 'north'), row([0, 1, 2, 3, 4, 5], 'south'));
  board.replaceChildren(store(1), rows, store(0));
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

function highlight(classes: Record<string, number | null>): void {
  for (const button of pitButtons) button.classList.remove('lifted', 'last', 'captured');
  for (const [name, pit] of Object.entries(classes)) {
    if (pit !== null) pitButtons[pit]?.classList.add(name);
  }
}

/** Enables exactly the pits the person may lift now. */
function updateControls(): void {
  const game = session;
  const legal = game?.humanToMove && !busy ? game.legal : [];
  const offset = game ? game.human * 6 : 0;
  pitButtons.forEach((button, pit) => {
    const isLegal = legal.includes(pit - offset) && pit >= offset && pit < offset + 6;
    button.disabled = !isLegal;
    button.classList.toggle('legal', isLegal);
  });
  app.dataset.busy = String(busy);
  if (game) {
    board.dataset.position = game.moves.at(-1)?.after ?? '4,4,4,4,4,4/4,4,4,4,4,4/0-0/0';
    board.dataset.toMove = String(game.position.toMove);
  }
}

function setStatus(text: string): void {
  statusLine.textContent = text;
}

function computerName(): string {
  return session?.computer.name ?? '';
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
  item.scrollIntoView({ block: 'nearest' });
}

function listLaps(move: MoveRecord): HTMLLIElement[] {
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
    move.captured > 0
      ? `Captured ${move.captured} seed${move.captured === 1 ? '' : 's'} from pit ${move.capturedFrom}`
      : 'No capture';
  lapList.replaceChildren(...items, ...extra, end);
  lapList.dataset.move = String(move.ply);
  return items;
}

/** Shows a move lap by lap, then its capture; false if a new game started meanwhile. */
async function animate(move: MoveRecord, game: number): Promise<boolean> {
  logMove(move);
  const items = listLaps(move);
  const before = move.before.split('/')[2]?.split('-').map(Number) ?? [0, 0];
  const delay = lapDelay > 0 ? Math.min(lapDelay, MAX_ANIMATION_MS / move.laps.length) : 0;
  const who = `${PLAYER_NAMES[move.player]} (${move.by === 'human' ? 'you' : computerName()})`;
  if (delay > 0) {
    for (const [i, lap] of move.laps.entries()) {
      setStatus(`${who} sows pit ${move.pit}: lap ${i + 1} of ${move.laps.length}`);
      showPits(lap.pitsAfter, before);
      highlight({ lifted: lap.from, last: lap.end });
      items[i - 1]?.classList.remove('current');
      items[i]?.classList.add('current');
      await sleep(delay);
      if (game !== generation) return false;
    }
  }
  const last = move.laps.at(-1);
  showPits(move.position.pits, move.position.stores);
  highlight({ last: last?.end ?? null, captured: move.capturedFrom });
  return true;
}

function showResult(): void {
  const game = session;
  const result = game?.result;
  if (!game || !result) {
    resultLine.hidden = true;
    return;
  }
  resultLine.hidden = false;
  resultLine.textContent = describeResult(result, game.human);
  resultLine.dataset.scores = `${result.scores[0]}-${result.scores[1]}`;
  resultLine.dataset.winner = result.winner === null ? 'draw' : String(result.winner);
  showPits(game.position.pits, game.position.stores);
  if (result.winner !== null) element(`store-${result.winner}`).classList.add('winner');
  setStatus(`Game over after ${game.moves.length} moves.`);
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
    const move = current.playComputer();
    if (!(await animate(move, game))) return;
  }
  busy = false;
  if (current.result) showResult();
  else
    setStatus(
      `Your turn: you are ${PLAYER_NAMES[current.human]} (${current.human === 0 ? 'bottom' : 'top'} row). Click a highlighted pit.`,
    );
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

function makeComputer(choice: string, rules: Rules, seed: number): ComputerPlayer {
  if (choice === 'policy') {
    if (policy === null) throw new Error('no policy is loaded');
    return new PolicyPlayer(policy, rules);
  }
  const depth = Number(choice.split(':')[1]);
  return new MinimaxPlayer(depth, rules, seed);
}

function newGame(): void {
  generation++;
  busy = false;
  const rules = policy?.rules ?? DEFAULT_RULES;
  const human = (sideSelect.value === '1' ? 1 : 0) as Player;
  session = new GameSession(human, makeComputer(opponentSelect.value, rules, generation), rules);
  moveList.replaceChildren();
  lapList.replaceChildren();
  resultLine.hidden = true;
  delete resultLine.dataset.scores;
  for (const player of [0, 1]) element(`store-${player}`).classList.remove('winner');
  showPits(session.position.pits, session.position.stores);
  highlight({});
  app.dataset.human = String(human);
  app.dataset.opponent = session.computer.name;
  rulesInfo.textContent = `Rules: the capturing seed ${rules.captureSeedStays ? 'stays in its pit' : 'is captured too'}; seeds left at the end go to the ${rules.leftoverTo === 'owner' ? 'owner of each row' : 'player who made the last move'}. A store of 25 wins.`;
  void runComputer(generation);
}

async function loadPolicy(): Promise<void> {
  try {
    const response = await fetch('policy.json', { cache: 'no-store' });
    if (response.status === 404) {
      app.dataset.policy = 'none';
      policyInfo.textContent =
        'No policy is served (start the page with `ayoayo web --policy PATH`): minimax only.';
    } else if (!response.ok) {
      throw new Error(`HTTP ${response.status}`);
    } else {
      policy = decodeBrowserPolicy(await response.json());
      app.dataset.policy = 'loaded';
      const source = policy.source;
      const { encoding, lookahead } = policy.observation;
      policyInfo.textContent = `Policy: ${source?.run ? `run ${source.run}, iteration ${source.iteration}` : 'unknown run'} — observation ${encoding}${lookahead ? ' + lookahead' : ''}, hidden layers ${policy.weights.hidden.map((h) => h.outputSize).join('×')}.`;
    }
  } catch (error) {
    app.dataset.policy = 'error';
    policyInfo.textContent = `The policy could not be loaded (${(error as Error).message}): minimax only.`;
  }
  const policyOption = opponentSelect.querySelector<HTMLOptionElement>('option[value="policy"]');
  if (policy === null && policyOption) {
    policyOption.disabled = true;
    opponentSelect.value = 'minimax:4';
  }
}

buildBoard();
newGameButton.addEventListener('click', newGame);
await loadPolicy();
newGame();
