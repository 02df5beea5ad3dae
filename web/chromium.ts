import { accessSync, constants } from 'node:fs';
import { delimiter, join } from 'node:path';
import { type Browser, chromium } from 'playwright-core';

/**
 * Debian's Chromium (`apt-get install chromium`), found on PATH; the tests never
 * download a browser. Null when no `chromium` is on PATH.
 */
export function findChromium(): string | null {
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (dir === '') continue;
    const candidate = join(dir, 'chromium');
    try {
      accessSync(candidate, constants.X_OK);
      return candidate;
    } catch {
      // not in this folder
    }
  }
  return null;
}

export interface Viewport {
  readonly width: number;
  readonly height: number;
}

/** The three screens the page is tested on. */
export const VIEWPORTS = {
  phone: { width: 360, height: 740 },
  tablet: { width: 768, height: 1024 },
  desktop: { width: 1440, height: 900 },
} as const satisfies Record<string, Viewport>;

/** Headless Chromium as the page's tests and web/screenshots.ts run it. */
export function launchChromium(): Promise<Browser> {
  const executablePath = findChromium();
  if (executablePath === null) {
    throw new Error("no chromium on PATH: install Debian's chromium (apt-get install chromium)");
  }
  return chromium.launch({
    executablePath,
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
}
