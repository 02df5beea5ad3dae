/**
 * Regenerates the pictures of the page shown in README.md and docs/export.md (web/screenshots/*.png) from
 * the real program: builds the page, serves it with the shipped policy, plays a
 * few seeded moves against it in headless Chromium and photographs a desktop
 * (with the review of those moves) and a phone. Run: npx tsx web/screenshots.ts
 */
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Page } from 'playwright-core';
import { Random } from '../env/index.ts';
import { PRETRAINED_POLICY } from '../models/export/default-policy.ts';
import { policyFileOf } from '../models/export/export-policy.ts';
import { loadPolicy } from '../models/load-policy.ts';
import { close, listen } from '../serve/listen.ts';
import { buildWeb } from './build.ts';
import { launchChromium, VIEWPORTS } from './chromium.ts';
import { createWebServer } from './web-server.ts';

const OUT = fileURLToPath(new URL('screenshots/', import.meta.url));

/**
 * Plays at least `moves` of the person's moves by clicking seeded random
 * playable pits, then on until the board shows a capture (at most 10 moves).
 */
async function play(page: Page, moves: number, seed: number): Promise<void> {
  const rng = Random.fromSeed(seed);
  for (let i = 0; i < 10; i++) {
    if (i >= moves && (await page.locator('#board .pit.captured').count()) > 0) break;
    await page.waitForSelector('#app[data-busy="false"]');
    const pits = await page
      .locator('#board .pit:enabled')
      .evaluateAll((els) =>
        els.map((el) => (el as unknown as { dataset: { pit: string } }).dataset.pit),
      );
    if (pits.length === 0) return;
    await page.locator(`#board .pit[data-pit="${rng.pick(pits)}"]`).click();
  }
  await page.waitForSelector('#app[data-busy="false"]');
}

const policyJson = JSON.stringify(policyFileOf(loadPolicy(PRETRAINED_POLICY)));
const built = await buildWeb(mkdtempSync(join(tmpdir(), 'ayoayo-screenshots-')));
const server = createWebServer({ root: built.outDir, policyJson });
const url = await listen(server, 0, '127.0.0.1');
const browser = await launchChromium();
mkdirSync(OUT, { recursive: true });
try {
  for (const [name, viewport, human, moves] of [
    ['desktop', { width: 1280, height: 900 }, '0', 4],
    ['phone', VIEWPORTS.phone, '1', 1],
  ] as const) {
    const page = await browser.newPage({ viewport, deviceScaleFactor: name === 'phone' ? 2 : 1 });
    await page.goto(`${url}/?speed=0`);
    await page.waitForSelector('#app[data-busy="false"]');
    await page.selectOption('#side', human);
    await page.click('#new-game');
    await play(page, moves, 5);
    if (name === 'desktop') {
      await page.click('#review-game');
      await page.waitForSelector('#review[data-state="done"]', { timeout: 120_000 });
    }
    const file = join(OUT, `${name}.png`);
    // The desktop's whole page; the phone's first screen, as a person holds it.
    await page.screenshot({ path: file, fullPage: name === 'desktop' });
    process.stdout.write(`${file}: ${readFileSync(file).length} bytes\n`);
    await page.close();
  }
} finally {
  await browser.close();
  await close(server);
}
