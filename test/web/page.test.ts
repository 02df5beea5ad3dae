import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { MinimaxSearch } from '../../agents/minimax-search.ts';
import { NetworkEvaluator } from '../../agents/network/network-evaluator.ts';
import { PuctSearch } from '../../agents/puct/search.ts';
import { ObservationEncoder } from '../../env/gym/observation.ts';
import {
  applyAction,
  formatPosition,
  legalActions,
  maskToBytes,
  outcome,
  parsePosition,
  Random,
  START_NOTATION,
} from '../../env/index.ts';
import { type LoadedPolicy, loadPolicy } from '../../models/load-policy.ts';
import { argmaxLegal, MlpRunner } from '../../models/mlp-runner.ts';
import { close, listen } from '../../serve/listen.ts';
import { bookFirst } from '../../solve/book/answer.ts';
import { bookIfAny } from '../../solve/book/cache/load-book.ts';
import { solvingAgentEndgame } from '../../solve/endgame/cache/shared-tables.ts';
import {
  type ExactValues,
  type ReviewedMove,
  reviewGame,
  solverExactValues,
} from '../../solve/index.ts';
import { buildWeb } from '../../web/build.ts';
import { launchChromium, VIEWPORTS, type Viewport } from '../../web/chromium.ts';
import { createWebServer } from '../../web/web-server.ts';
import { writeRandomPolicy } from '../export/random-policy.ts';
import { CHROMIUM_BROWSER, describeWithSystemPackage } from '../system-packages.ts';

/**
 * Every wait in this file is for the page's own state (an attribute it sets,
 * an element it shows), never for a time: playwright's waits are given no
 * timeout, and a test's only clock is vitest's, generous enough for a loaded
 * machine (a game against the perfect player took 14 s alone and over 60 s
 * beside other jobs).
 */
const TEST_MS = 900_000;

interface LoggedMove {
  player: number;
  by: string;
  action: number;
  before: string;
  after: string;
}

async function movesOf(page: Page): Promise<LoggedMove[]> {
  // One round trip for the whole log (a string expression: this file has no DOM types).
  const rows = await page.evaluate<Record<string, string>[]>(
    "[...document.querySelectorAll('#moves li')].map((li) => ({ ...li.dataset }))",
  );
  return rows.map((row) => ({
    player: Number(row.player),
    by: row.by ?? '',
    action: Number(row.action),
    before: row.before ?? '',
    after: row.after ?? '',
  }));
}

/** What the page shows now: the position, whether the game is over, and the clickable pits. */
async function pageState(
  page: Page,
): Promise<{ position: string; over: boolean; enabled: number[] }> {
  return page.evaluate<{ position: string; over: boolean; enabled: number[] }>(`({
    position: document.getElementById('board').dataset.position,
    over: !document.getElementById('result').hidden,
    enabled: [...document.querySelectorAll('#board .pit:enabled')].map((b) => Number(b.dataset.pit)),
  })`);
}

/**
 * Clicks random enabled pits until the game ends, checking before each click
 * that exactly the legal pits of the person's row are enabled.
 */
async function playByClicking(
  page: Page,
  human: number,
  seed: number,
  how: 'click' | 'tap' = 'click',
): Promise<void> {
  const rng = Random.fromSeed(seed);
  for (let turn = 0; turn < 300; turn++) {
    await page.waitForSelector('#app[data-busy="false"]');
    const state = await pageState(page);
    if (state.over) return;
    const pos = parsePosition(state.position);
    expect(pos.toMove).toBe(human);
    const legalPits = legalActions(pos).map((a) => a + 6 * human);
    expect([...state.enabled].sort((a, b) => a - b)).toEqual(legalPits);
    const pit = page.locator(`#board .pit[data-pit="${rng.pick(state.enabled)}"]`);
    await (how === 'tap' ? pit.tap() : pit.click());
  }
  throw new Error('the game did not end within 300 turns');
}

interface Box {
  readonly name: string;
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

/** The bounding boxes of every pit and store, and the page's width as laid out. */
async function boardBoxes(page: Page): Promise<{ boxes: Box[]; scrollWidth: number }> {
  return page.evaluate<{ boxes: Box[]; scrollWidth: number }>(`({
    boxes: [...document.querySelectorAll('#board .pit, #board .store')].map((el) => {
      const r = el.getBoundingClientRect();
      const name = el.classList.contains('pit') ? 'pit ' + el.dataset.pit : el.id;
      return { name, x: r.x + scrollX, y: r.y + scrollY, width: r.width, height: r.height };
    }),
    scrollWidth: document.documentElement.scrollWidth,
  })`);
}

function overlaps(a: Box, b: Box): boolean {
  const slack = 0.5;
  return (
    a.x + a.width > b.x + slack &&
    b.x + b.width > a.x + slack &&
    a.y + a.height > b.y + slack &&
    b.y + b.height > a.y + slack
  );
}

/**
 * The board as `human` sees it at this viewport width: all 12 pits and both
 * stores inside the viewport, none overlapping another, pits big enough to tap;
 * the person's row at the bottom, left to right, each pit facing its opposite.
 */
async function checkLayout(page: Page, human: number, viewportWidth: number): Promise<void> {
  const { boxes, scrollWidth } = await boardBoxes(page);
  expect(boxes).toHaveLength(14);
  expect(scrollWidth, 'the page scrolls sideways').toBeLessThanOrEqual(viewportWidth);
  for (const box of boxes) {
    expect(box.x, `${box.name} is cut off on the left`).toBeGreaterThanOrEqual(0);
    expect(box.x + box.width, `${box.name} is cut off on the right`).toBeLessThanOrEqual(
      viewportWidth,
    );
    expect(box.width, `${box.name} is too small to tap`).toBeGreaterThanOrEqual(40);
    expect(box.height, `${box.name} is too small to tap`).toBeGreaterThanOrEqual(40);
  }
  for (const [i, a] of boxes.entries()) {
    for (const b of boxes.slice(i + 1)) {
      expect(overlaps(a, b), `${a.name} overlaps ${b.name}`).toBe(false);
    }
  }
  const pit = (n: number): Box => {
    const found = boxes.find((box) => box.name === `pit ${n}`);
    if (!found) throw new Error(`pit ${n} is missing`);
    return found;
  };
  const mine = [0, 1, 2, 3, 4, 5].map((a) => pit(6 * human + a));
  const theirs = [0, 1, 2, 3, 4, 5].map((a) => pit(6 * (1 - human) + a));
  const lowestOfTheirs = Math.max(...theirs.map((box) => box.y + box.height));
  for (const [a, box] of mine.entries()) {
    expect(box.y, `my pit ${a} is not below the other row`).toBeGreaterThanOrEqual(lowestOfTheirs);
    if (a > 0) expect(box.x).toBeGreaterThan((mine[a - 1] as Box).x); // left to right
    // Pit k faces pit 11 - k: my action a faces the other row's action 5 - a.
    expect(Math.abs(box.x - (theirs[5 - a] as Box).x)).toBeLessThan(2);
  }
}

/** Checks the move log against the engine: a chain of legal moves from the start to a finished game. */
function checkLog(moves: readonly LoggedMove[], human: number): string {
  expect(moves.length).toBeGreaterThan(5);
  let expectedBefore = START_NOTATION;
  for (const move of moves) {
    expect(move.before).toBe(expectedBefore);
    const pos = parsePosition(move.before);
    expect(move.player).toBe(pos.toMove);
    expect(move.by).toBe(move.player === human ? 'human' : 'computer');
    expect(legalActions(pos), `${move.by} move ${move.action} in ${move.before}`).toContain(
      move.action,
    );
    expect(move.after).toBe(formatPosition(applyAction(pos, move.action)));
    expectedBefore = move.after;
  }
  expect(outcome(parsePosition(expectedBefore))).not.toBeNull();
  return expectedBefore;
}

async function checkResultShown(page: Page, final: string): Promise<void> {
  const result = outcome(parsePosition(final));
  if (result === null) throw new Error(`the game is not over in ${final}`);
  const [s0, s1] = result.scores;
  const shown = page.locator('#result');
  await shown.waitFor({ state: 'visible' });
  expect(await shown.getAttribute('data-scores')).toBe(`${s0}-${s1}`);
  expect(await shown.textContent()).toContain(`Final score: South ${s0} – ${s1} North`);
}

interface ReviewRow {
  ply: number;
  player: number;
  action: number;
  before: string;
  after: string;
  error: string;
  best: string;
  mistake: boolean;
  text: string;
}

/** The review panel's rows as the page shows them. */
async function reviewRows(page: Page): Promise<ReviewRow[]> {
  const rows = await page.evaluate<(Record<string, string> & { mistake: boolean; text: string })[]>(
    "[...document.querySelectorAll('#review-moves li')].map((li) => ({ ...li.dataset, mistake: li.classList.contains('mistake'), text: li.textContent }))",
  );
  return rows.map((row) => ({
    ply: Number(row.ply),
    player: Number(row.player),
    action: Number(row.action),
    before: row.before ?? '',
    after: row.after ?? '',
    error: row.error ?? '',
    best: row.best ?? '',
    mistake: row.mistake,
    text: row.text,
  }));
}

/**
 * Exact values as Node proves them, whatever the time it takes: the opening
 * book where it has the position, else the solver with the 16-seed endgame
 * table and no budget (so that no value is `unknown` on a loaded machine).
 */
function valuesInNode(): ExactValues {
  return bookFirst(
    bookIfAny,
    solverExactValues({ budgetMs: Number.POSITIVE_INFINITY, endgame: solvingAgentEndgame }),
  );
}

/** The review of `actions` from the start as Node proves it. */
function reviewInNode(
  actions: readonly number[],
  rules: LoadedPolicy['rules'],
): readonly ReviewedMove[] {
  return reviewGame({ start: parsePosition(START_NOTATION), actions, rules }, valuesInNode()).moves;
}

/** The value of a position for its player to move, as Node proves it. */
function valueInNode(notation: string, rules: LoadedPolicy['rules']): string {
  return valuesInNode()(parsePosition(notation), rules).value;
}

function evaluatePolicy(policy: LoadedPolicy, notation: string) {
  const encoder = new ObservationEncoder(policy.observation, policy.rules);
  const obs = new Float32Array(encoder.size);
  const bits = encoder.encode(parsePosition(notation).toState(), obs, 0);
  const mask = maskToBytes(bits, new Uint8Array(6));
  return { mask, ...new MlpRunner(policy.weights).evaluate(obs, mask) };
}

function policyChoice(policy: LoadedPolicy, notation: string): number {
  const { logits, mask } = evaluatePolicy(policy, notation);
  return argmaxLegal(logits, 0, mask);
}

function policyValue(policy: LoadedPolicy, notation: string): number {
  return evaluatePolicy(policy, notation).value;
}

describeWithSystemPackage(
  CHROMIUM_BROWSER,
  'the browser page in headless Chromium',
  () => {
    let dir: string;
    let server: Server;
    let url: string;
    let browser: Browser;
    let policy: LoadedPolicy;
    const pageErrors: string[] = [];

    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'ayoayo-web-'));
      const policyPath = writeRandomPolicy(join(dir, 'policy'));
      policy = loadPolicy(policyPath);
      const built = await buildWeb(join(dir, 'dist'));
      server = createWebServer({
        root: built.outDir,
        policyJson: readFileSync(policyPath, 'utf8'),
      });
      url = await listen(server, 0, '127.0.0.1');
      browser = await launchChromium();
    }, TEST_MS);

    afterAll(async () => {
      await browser?.close();
      if (server) await close(server);
      expect(pageErrors).toEqual([]);
    });

    async function open(viewport: Viewport = VIEWPORTS.desktop, query = '?speed=0'): Promise<Page> {
      const page = await browser.newPage({ viewport, hasTouch: viewport.width < 1000 });
      page.setDefaultTimeout(0);
      page.on('pageerror', (error) => pageErrors.push(error.message));
      await page.goto(`${url}/${query}`);
      await page.waitForSelector('#app[data-busy="false"]');
      return page;
    }

    async function start(page: Page, spec: string, human: number): Promise<void> {
      await page.selectOption('#opponent', spec.split(':')[0] ?? '');
      // Agents without a budget have a single strength and the setting is disabled.
      if (await page.locator('#strength').isEnabled()) await page.selectOption('#strength', spec);
      await page.selectOption('#side', String(human));
      await page.click('#new-game');
      await page.waitForSelector(`#app[data-opponent="${spec}"][data-human="${human}"]`);
      await page.waitForSelector('#app[data-busy="false"]');
    }

    it("lays the board out on a phone, a tablet and a desktop with the person's row at the bottom, as South and as North", async () => {
      const page = await open(VIEWPORTS.phone);
      for (const viewport of Object.values(VIEWPORTS)) {
        await page.setViewportSize(viewport);
        for (const human of [0, 1]) {
          await start(page, 'minimax:2', human);
          await checkLayout(page, human, viewport.width);
          const label = page.locator(`#board .pit[data-pit="${6 * human + 2}"] .number`);
          expect(await label.textContent()).toBe(human === 0 ? 'S2' : 'N2');
        }
      }
      await page.close();
    });

    it('plays a whole game on a phone as North against the policy by tapping; the policy only plays its own choices', async () => {
      const page = await open(VIEWPORTS.phone);
      expect(await page.locator('#app').getAttribute('data-policy')).toBe('loaded');
      expect(await page.locator('#policy-info').textContent()).toContain('run random-test-policy');
      await start(page, 'policy:models/pretrained', 1);
      await checkLayout(page, 1, VIEWPORTS.phone.width);
      await playByClicking(page, 1, 11, 'tap');
      const moves = await movesOf(page);
      expect(moves[0]?.by).toBe('computer');
      const final = checkLog(moves, 1);
      for (const move of moves.filter((m) => m.by === 'computer')) {
        expect(move.action, `policy move in ${move.before}`).toBe(
          policyChoice(policy, move.before),
        );
      }
      await checkResultShown(page, final);
      await checkLayout(page, 1, VIEWPORTS.phone.width);
      await page.close();
    });

    it('plays a whole game on a desktop as South against minimax, whose moves are legal and among its best', async () => {
      const page = await open(VIEWPORTS.desktop);
      await start(page, 'minimax:2', 0);
      await playByClicking(page, 0, 12);
      const moves = await movesOf(page);
      expect(moves[0]?.by).toBe('human');
      const final = checkLog(moves, 0);
      const search = new MinimaxSearch({ rules: policy.rules });
      for (const move of moves.filter((m) => m.by === 'computer')) {
        const pos = parsePosition(move.before);
        if (legalActions(pos).length === 1) continue;
        const best = search.search(pos.toState(), { depth: 2 }).bestActions;
        expect(best, `minimax move in ${move.before}`).toContain(move.action);
      }
      await checkResultShown(page, final);
      await page.close();
    });

    it('offers every browser agent with its strengths; mcts and greedy play legal games on a tablet', async () => {
      const page = await open(VIEWPORTS.tablet);
      const options = await page.evaluate<string[]>(
        "[...document.querySelectorAll('#opponent option')].map((o) => o.value)",
      );
      expect([...options].sort()).toEqual([
        'az',
        'greedy',
        'mcts',
        'minimax',
        'perfect',
        'policy',
        'random',
      ]);
      await page.selectOption('#opponent', 'mcts');
      const budgets = await page.evaluate<string[]>(
        "[...document.querySelectorAll('#strength option')].map((o) => o.value)",
      );
      expect(budgets).toEqual(['mcts:250', 'mcts:1000', 'mcts:4000', 'mcts:16000']);
      for (const [spec, human, seed] of [
        ['mcts:250', 0, 21],
        ['greedy', 1, 22],
      ] as const) {
        await start(page, spec, human);
        await playByClicking(page, human, seed);
        checkLog(await movesOf(page), human);
      }
      await page.close();
    });

    it('plays the perfect opponent (book, then the solver in its worker): moving first it wins, and no move of it loses value', async () => {
      const page = await open(VIEWPORTS.desktop);
      expect(await page.locator('#opponent option').first().getAttribute('value')).toBe('perfect');
      await start(page, 'perfect', 1);
      await playByClicking(page, 1, 24);
      const moves = await movesOf(page);
      expect(moves[0]).toMatchObject({ by: 'computer', action: 2 });
      const final = checkLog(moves, 1);
      const result = outcome(parsePosition(final));
      expect(result?.scores[0], `South (perfect) wins in ${final}`).toBeGreaterThan(
        result?.scores[1] ?? 48,
      );
      const perfectMoves = reviewInNode(
        moves.map((m) => m.action),
        policy.rules,
      ).filter((m) => m.player === 0);
      for (const move of perfectMoves) {
        expect(move, `perfect's move at ply ${move.ply}`).toMatchObject({ error: false });
      }
      await checkResultShown(page, final);
      await page.close();
    });

    it('plays a whole game against the policy with PUCT (az:50), whose moves are among the search’s best, with the value bar', async () => {
      const page = await open(VIEWPORTS.tablet);
      await page.selectOption('#opponent', 'az');
      const budgets = await page.evaluate<string[]>(
        "[...document.querySelectorAll('#strength option')].map((o) => o.value)",
      );
      const az = (sims: number) => `az:models/pretrained,sims=${sims},batch=1,reuse=0,cache=14`;
      expect(budgets).toEqual([50, 200, 800, 3200].map(az));
      await start(page, az(50), 1);
      expect(await page.locator('#evaluation').isVisible()).toBe(true);
      await playByClicking(page, 1, 23);
      const moves = await movesOf(page);
      checkLog(moves, 1);
      const network = new NetworkEvaluator(policy.weights, policy.observation, policy.rules);
      const search = new PuctSearch(network, { rules: policy.rules });
      for (const move of moves.filter((m) => m.by === 'computer')) {
        const pos = parsePosition(move.before);
        if (legalActions(pos).length === 1) continue;
        const best = search.search(pos.toState(), { simulations: 50 }).bestActions;
        expect(best, `az move in ${move.before}`).toContain(move.action);
      }
      await page.close();
    });

    it("plays from the keyboard, takes moves back, and shows the value head as a bar from the person's side", async () => {
      const page = await open(VIEWPORTS.desktop);
      await start(page, 'policy:models/pretrained', 0);
      // Playable pits glow green; while the person chooses, the other row is dimmed.
      const looks = await page.evaluate<{ shadow: string; filter: string }[]>(
        "[...document.querySelectorAll('#board .pit')].map((b) => ({ pit: b.dataset.pit, shadow: getComputedStyle(b).boxShadow, filter: getComputedStyle(b).filter })).sort((x, y) => x.pit - y.pit)",
      );
      for (const [pit, look] of looks.entries()) {
        expect(look.shadow.includes('rgb(125, 252, 158)'), `pit ${pit} glows`).toBe(pit < 6);
        expect(look.filter === 'none', `pit ${pit} is not dimmed`).toBe(pit < 6);
      }
      const bar = page.locator('#evaluation');
      expect(await bar.isVisible()).toBe(true);
      const valueFor = (notation: string): number => {
        const pos = parsePosition(notation);
        const value = policyValue(policy, notation);
        return pos.toMove === 0 ? value : -value;
      };
      expect(Number(await bar.getAttribute('data-value'))).toBeCloseTo(valueFor(START_NOTATION), 5);

      // Arrows move the focus along the playable pits, Enter lifts the focused one.
      await page.keyboard.press('ArrowRight');
      await page.keyboard.press('ArrowRight');
      const focused = await page.evaluate<string>('document.activeElement.dataset.pit');
      expect(focused).toBe('1');
      await page.keyboard.press('Enter');
      await page.waitForSelector('#app[data-busy="false"]');
      let moves = await movesOf(page);
      expect(moves.map((m) => [m.by, m.player])).toEqual([
        ['human', 0],
        ['computer', 1],
      ]);
      expect(moves[0]?.action).toBe(1);
      const now = (await pageState(page)).position;
      expect(Number(await bar.getAttribute('data-value'))).toBeCloseTo(valueFor(now), 5);
      const reading = valueFor(now);
      expect(await bar.locator('.reading').textContent()).toBe(
        `${reading >= 0 ? '+' : ''}${reading.toFixed(2)}`,
      );
      // The last move and its capture are marked on the board.
      const last = moves[1] as LoggedMove;
      expect(
        await page.locator(`#board .pit[data-pit="${last.action + 6}"]`).getAttribute('class'),
      ).toContain('played');

      // Undo takes back the person's move and the reply.
      await page.click('#undo');
      expect((await pageState(page)).position).toBe(START_NOTATION);
      expect(await movesOf(page)).toEqual([]);
      expect(await page.locator('#undo').isDisabled()).toBe(true);
      expect((await pageState(page)).enabled).toEqual([0, 1, 2, 3, 4, 5]);

      // A digit plays that action.
      await page.locator('body').press('4');
      await page.waitForSelector('#app[data-busy="false"]');
      moves = await movesOf(page);
      expect(moves[0]?.action).toBe(4);
      expect(moves[0]?.before).toBe(START_NOTATION);
      await page.close();
    });

    /** Waits until the perfect-play line has its answer for `position` (the page sets data-value). */
    async function lineAnswered(page: Page, position: string): Promise<void> {
      await page.waitForSelector(
        `#perfect-play[data-position="${position}"]:not([data-value="pending"])`,
        { state: 'attached' },
      );
    }

    it("says the opening book's proven value at the start and wherever the book has the position", async () => {
      // The default budget, 1.5 s: far too short to solve the start without the book.
      const page = await open(VIEWPORTS.desktop);
      await start(page, 'minimax:2', 0);
      const line = page.locator('#perfect-play');
      await lineAnswered(page, START_NOTATION);
      expect(await line.textContent()).toBe('Perfect play says: win for you (South).');
      expect(await line.getAttribute('data-value')).toBe('win');
      expect(await line.getAttribute('data-source')).toBe('book');
      // S0 throws the win away; two plies on, the book still has the position.
      await page.click('#board .pit[data-pit="0"]');
      await page.waitForSelector('#app[data-busy="false"]');
      const now = (await pageState(page)).position;
      expect((await movesOf(page)).map((m) => m.by)).toEqual(['human', 'computer']);
      await lineAnswered(page, now);
      expect(await line.getAttribute('data-source')).toBe('book');
      // South is to move, so the value for the mover is the person's.
      expect(await line.getAttribute('data-value')).toBe(valueInNode(now, policy.rules));
      await page.close();
    });

    it('says what perfect play gives the person, solved in a worker while the page stays playable', async () => {
      // A long budget: past the book the worker may solve for 20 s, and the person moves meanwhile.
      const slow = await open(VIEWPORTS.desktop, '?speed=0&solve=20000');
      await start(slow, 'minimax:2', 0);
      const slowLine = slow.locator('#perfect-play');
      const clicks = Random.fromSeed(40);
      for (let turn = 1; turn <= 5; turn++) {
        const state = await pageState(slow);
        if (state.over) break;
        await slow.click(`#board .pit[data-pit="${clicks.pick(state.enabled)}"]`);
        await slow.waitForSelector('#app[data-busy="false"]');
        expect(await movesOf(slow)).toHaveLength(2 * turn);
        // The line follows the board, whether or not the worker has answered an earlier position.
        expect(await slowLine.getAttribute('data-position')).toBe((await pageState(slow)).position);
      }
      await slow.close();

      // Play on as North until the solver answers a position past the book. Its budget is one no
      // position here needs (a solve past the book takes seconds at most): the line waits for the
      // proof however loaded the machine, rather than saying "not proven" when it is slow.
      const page = await open(VIEWPORTS.desktop, '?speed=0&solve=600000');
      await start(page, 'minimax:2', 1);
      const line = page.locator('#perfect-play');
      // The person plays minimax's moves too: random ones lose within the book's plies.
      const person = new MinimaxSearch({ rules: policy.rules });
      let fromBook = 0;
      for (let turn = 0; ; turn++) {
        expect(turn, 'no position was solved').toBeLessThan(100);
        await page.waitForSelector('#app[data-busy="false"]');
        const state = await pageState(page);
        expect(state.over, 'no position was solved before the end').toBe(false);
        await lineAnswered(page, state.position);
        const shown = await line.getAttribute('data-value');
        // North is to move, so the value for the mover is the person's.
        if ((await line.getAttribute('data-source')) === 'book') {
          expect(shown).toBe(valueInNode(state.position, policy.rules));
          fromBook++;
        } else if (shown === 'unknown') {
          expect(await line.textContent()).toBe(
            'Perfect play: this position hangs on endless play.',
          );
        } else {
          const truth = valueInNode(state.position, policy.rules);
          expect(shown).toBe(truth);
          expect(await line.textContent()).toContain(`Perfect play says: ${truth}`);
          break;
        }
        const action = person.search(parsePosition(state.position).toState(), { depth: 4 })
          .bestActions[0] as number;
        await page.click(`#board .pit[data-pit="${action + 6}"]`);
      }
      expect(fromBook, 'the opening came from the book').toBeGreaterThan(0);
      await page.close();
    });

    it('reviews a game against perfect play when it ends, the losing first move S0 marked with the best, S2; and on demand during a game', async () => {
      const page = await open(VIEWPORTS.desktop, '?speed=0&solve=0&review=30000');
      await start(page, 'greedy', 0);
      expect(await page.locator('#review').isVisible()).toBe(false);
      expect(await page.locator('#review-game').isDisabled()).toBe(true);
      // The start is won only by S2: S0 throws the win away.
      await page.click('#board .pit[data-pit="0"]');
      await playByClicking(page, 0, 31);
      const moves = await movesOf(page);
      checkLog(moves, 0);
      const review = page.locator('#review');
      await page.waitForSelector('#review[data-state="done"]', { state: 'attached' });
      expect(await review.isVisible()).toBe(true);
      const rows = await reviewRows(page);
      expect(rows.map((r) => r.action)).toEqual(moves.map((m) => m.action));
      expect(rows.map((r) => r.player)).toEqual(moves.map((m) => m.player));
      expect(rows[0]).toMatchObject({
        ply: 0,
        before: 'win',
        after: 'loss',
        error: 'true',
        best: '2',
        mistake: true,
      });
      expect(rows[0]?.text).toBe('South (you) played S0: win → loss, lost value; best S2');
      // Every value the page proved is the one Node's solver proves; mistakes are marked as such.
      const truth = reviewInNode(
        moves.map((m) => m.action),
        policy.rules,
      );
      for (const [i, row] of rows.entries()) {
        const node = truth[i] as ReviewedMove;
        if (row.before !== 'unknown') expect(row.before, `move ${i + 1}`).toBe(node.before);
        if (row.after !== 'unknown') expect(row.after, `move ${i + 1}`).toBe(node.after);
        if (row.error !== 'null') expect(row.error, `move ${i + 1}`).toBe(String(node.error));
        expect(row.mistake).toBe(row.error === 'true');
        if (row.mistake) expect(row.best).toBe(node.best.join(','));
      }
      const ownMistakes = rows.filter((r) => r.player === 0 && r.mistake).length;
      expect(await page.locator('#review-summary').textContent()).toContain(
        `South (you): ${rows.filter((r) => r.player === 0).length} moves, ${ownMistakes} lost value (the first: move 1)`,
      );
      expect(await page.locator('#review-game').isDisabled()).toBe(true);

      // On demand, during the next game: the moves so far, none lost value after S2.
      await start(page, 'greedy', 0);
      expect(await review.isVisible()).toBe(false);
      await page.click('#board .pit[data-pit="2"]');
      await page.waitForSelector('#app[data-busy="false"]');
      expect(await page.locator('#review-game').isDisabled()).toBe(false);
      await page.click('#review-game');
      await page.waitForSelector('#review[data-state="done"]', { state: 'attached' });
      const early = await reviewRows(page);
      expect(early).toHaveLength(2);
      expect(early[0]).toMatchObject({
        ply: 0,
        action: 2,
        before: 'win',
        after: 'win',
        error: 'false',
        mistake: false,
      });
      expect(early[0]?.text).toBe('South (you) played S2: win → win');
      // An undo takes the review away: it was of moves no longer played.
      await page.click('#undo');
      expect(await review.isVisible()).toBe(false);
      await page.close();
    });

    it('renders the board with the relay animation and gives a real screenshot', async () => {
      const page = await open(VIEWPORTS.desktop, '');
      const board = page.locator('#board');
      expect(await board.isVisible()).toBe(true);
      expect(await page.locator('#board .pit[data-pit="3"] .count').textContent()).toBe('4');
      const png = await page.screenshot({ fullPage: true });
      const boardPng = await board.screenshot();
      writeFileSync(join(dir, 'page.png'), png);
      for (const image of [png, boardPng]) {
        expect(image.subarray(0, 8)).toEqual(
          Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
        );
        // IHDR: width and height, then a picture with real content (not a blank page).
        expect(image.readUInt32BE(16)).toBeGreaterThan(600);
        expect(image.readUInt32BE(20)).toBeGreaterThan(200);
        expect(image.length).toBeGreaterThan(10_000);
      }
      await page.close();
    });

    it('offers search agents only, and says so, when no policy is served', async () => {
      const bare = createWebServer({ root: join(dir, 'dist'), policyJson: null });
      const bareUrl = await listen(bare, 0, '127.0.0.1');
      const page = await browser.newPage();
      page.setDefaultTimeout(0);
      try {
        await page.goto(`${bareUrl}/?speed=0`);
        await page.waitForSelector('#app[data-busy="false"]');
        expect(await page.locator('#app').getAttribute('data-policy')).toBe('none');
        expect(await page.locator('#opponent option[value="policy"]').isDisabled()).toBe(true);
        expect(await page.locator('#opponent option[value="az"]').isDisabled()).toBe(true);
        expect(await page.locator('#strength').inputValue()).toBe('minimax:4');
        expect(await page.locator('#policy-info').textContent()).toContain('search agents only');
        expect(await page.locator('#evaluation').isVisible()).toBe(false);
        expect((await pageState(page)).enabled).toEqual([0, 1, 2, 3, 4, 5]);
      } finally {
        await page.close();
        await close(bare);
      }
    });
  },
  { timeout: TEST_MS },
);
