import { existsSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Browser, chromium, type Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MinimaxSearch } from '../../agents/minimax-search.ts';
import { ObservationEncoder } from '../../env/gym/observation.ts';
import {
  applyAction,
  formatPosition,
  legalActions,
  outcome,
  parsePosition,
  Random,
  START_NOTATION,
} from '../../env/index.ts';
import { type LoadedPolicy, loadPolicy } from '../../models/load-policy.ts';
import { argmaxLegal, MlpRunner } from '../../models/mlp-runner.ts';
import { close, listen } from '../../serve/listen.ts';
import { buildWeb } from '../../web/build.ts';
import { createWebServer } from '../../web/web-server.ts';
import { writeRandomPolicy } from '../export/random-policy.ts';

const CHROMIUM = '/usr/bin/chromium';
const haveChromium = existsSync(CHROMIUM);
const inCi = (process.env.CI ?? '') !== '' && process.env.CI !== 'false';
if (!haveChromium && !inCi) {
  console.warn(
    `SKIPPED browser tests: ${CHROMIUM} is missing (apt-get install chromium). With CI=true they fail instead.`,
  );
}

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
async function playByClicking(page: Page, human: number, seed: number): Promise<void> {
  const rng = Random.fromSeed(seed);
  for (let turn = 0; turn < 300; turn++) {
    await page.waitForSelector('#app[data-busy="false"]');
    const state = await pageState(page);
    if (state.over) return;
    const pos = parsePosition(state.position);
    expect(pos.toMove).toBe(human);
    const legalPits = legalActions(pos).map((a) => a + 6 * human);
    expect([...state.enabled].sort((a, b) => a - b)).toEqual(legalPits);
    await page.locator(`#board .pit[data-pit="${rng.pick(state.enabled)}"]`).click();
  }
  throw new Error('the game did not end within 300 turns');
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
  await expect.poll(() => shown.isVisible()).toBe(true);
  expect(await shown.getAttribute('data-scores')).toBe(`${s0}-${s1}`);
  expect(await shown.textContent()).toContain(`Final score: South ${s0} – ${s1} North`);
}

function policyChoice(policy: LoadedPolicy, notation: string): number {
  const encoder = new ObservationEncoder(policy.observation, policy.rules);
  const obs = new Float32Array(encoder.size);
  const bits = encoder.encode(parsePosition(notation).toState(), obs, 0);
  const mask = Array.from({ length: 6 }, (_, a) => (bits >> a) & 1);
  const { logits } = new MlpRunner(policy.weights).evaluate(obs, mask);
  return argmaxLegal(logits, 0, mask);
}

describe.skipIf(!haveChromium && !inCi)('the browser page in headless Chromium', () => {
  let dir: string;
  let server: Server;
  let url: string;
  let browser: Browser;
  let policy: LoadedPolicy;
  const pageErrors: string[] = [];

  beforeAll(async () => {
    if (!haveChromium) {
      throw new Error(`${CHROMIUM} is missing: .ci/run must install Debian's chromium`);
    }
    dir = mkdtempSync(join(tmpdir(), 'ayoayo-web-'));
    const policyPath = writeRandomPolicy(join(dir, 'policy'));
    policy = loadPolicy(policyPath);
    const built = await buildWeb(join(dir, 'dist'));
    server = createWebServer({
      root: built.outDir,
      policyJson: readFileSync(policyPath, 'utf8'),
    });
    url = await listen(server, 0, '127.0.0.1');
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--headless',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    });
  });

  afterAll(async () => {
    await browser?.close();
    if (server) await close(server);
    expect(pageErrors).toEqual([]);
  });

  async function open(query = '?speed=0'): Promise<Page> {
    const page = await browser.newPage({ viewport: { width: 1000, height: 900 } });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${url}/${query}`);
    await page.waitForSelector('#app[data-busy="false"]');
    return page;
  }

  it('plays a whole game against the policy by clicking pits; the policy only plays its own legal choices', async () => {
    const page = await open();
    expect(await page.locator('#app').getAttribute('data-policy')).toBe('loaded');
    expect(await page.locator('#policy-info').textContent()).toContain('run random-test-policy');
    await page.selectOption('#opponent', 'policy');
    await page.selectOption('#side', '0');
    await page.click('#new-game');
    await playByClicking(page, 0, 11);
    const moves = await movesOf(page);
    const final = checkLog(moves, 0);
    for (const move of moves.filter((m) => m.by === 'computer')) {
      expect(move.action, `policy move in ${move.before}`).toBe(policyChoice(policy, move.before));
    }
    await checkResultShown(page, final);
    await page.close();
  });

  it('plays a whole game as North against minimax, whose moves are legal and among its best', async () => {
    const page = await open();
    await page.selectOption('#opponent', 'minimax:2');
    await page.selectOption('#side', '1');
    await page.click('#new-game');
    await playByClicking(page, 1, 12);
    const moves = await movesOf(page);
    expect(moves[0]?.by).toBe('computer');
    const final = checkLog(moves, 1);
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

  it('renders the board: 12 pits (North on top, right to left), two stores, a real screenshot', async () => {
    // With the relay animation on, as a person sees it.
    const page = await open('');
    const board = page.locator('#board');
    expect(await board.isVisible()).toBe(true);
    const pits = page.locator('#board .pit');
    expect(await pits.count()).toBe(12);
    for (let i = 0; i < 12; i++) expect(await pits.nth(i).isVisible()).toBe(true);
    for (const store of ['#store-0', '#store-1']) {
      expect(await page.locator(store).isVisible()).toBe(true);
    }
    const box = async (pit: number) => {
      const found = await page.locator(`#board .pit[data-pit="${pit}"]`).boundingBox();
      if (found === null) throw new Error(`pit ${pit} has no box`);
      return found;
    };
    const [p0, p5, p6, p11] = [await box(0), await box(5), await box(6), await box(11)];
    expect(p11.y).toBeLessThan(p0.y); // North's row on top
    expect(p11.x).toBeLessThan(p6.x); // North's pits run right to left
    expect(p0.x).toBeLessThan(p5.x);
    expect(Math.abs(p11.x - p0.x)).toBeLessThan(5); // pit 11 faces pit 0
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

  it('offers minimax only, and says so, when no policy is served', async () => {
    const bare = createWebServer({ root: join(dir, 'dist'), policyJson: null });
    const bareUrl = await listen(bare, 0, '127.0.0.1');
    const page = await browser.newPage();
    try {
      await page.goto(`${bareUrl}/?speed=0`);
      await page.waitForSelector('#app[data-busy="false"]');
      expect(await page.locator('#app').getAttribute('data-policy')).toBe('none');
      expect(await page.locator('#opponent option[value="policy"]').isDisabled()).toBe(true);
      expect(await page.locator('#opponent').inputValue()).toBe('minimax:4');
      expect(await page.locator('#policy-info').textContent()).toContain('minimax only');
      expect((await pageState(page)).enabled).toEqual([0, 1, 2, 3, 4, 5]);
    } finally {
      await page.close();
      await close(bare);
    }
  });
});
