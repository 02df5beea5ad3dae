import { gamesProgressBar } from '../../../display/progress.ts';
import type { Rules } from '../../../env/index.ts';
import type { EndgameValues } from '../build.ts';
import { type EndgameCacheOptions, loadEndgame } from './table-cache.ts';

export interface EndgameProgressOptions {
  /** Nothing on stderr. */
  readonly quiet?: boolean;
  /**
   * Where no terminal draws the bar, a line says that the table is being
   * built and one how long it took (a long run's log would otherwise show a
   * silent minute).
   */
  readonly announceBuild?: boolean;
  /** How the table is read (default loadEndgame; a per-thread cache passes its own). */
  readonly load?: (seeds: number, rules: Rules, options: EndgameCacheOptions) => EndgameValues;
}

/** Bytes in words: kilobytes under a megabyte, then megabytes. */
function sizeWords(bytes: number): string {
  return bytes < 1e6
    ? `${Math.max(1, Math.round(bytes / 1e3))} KB`
    : `${Math.round(bytes / 1e6)} MB`;
}

/**
 * The endgame table from the cache (loadEndgame), with a progress bar while
 * it has to be built (a minute or more for 16 seeds) and its notes on stderr.
 */
export function loadEndgameShowingProgress(
  seeds: number,
  rules: Rules,
  options: EndgameProgressOptions = {},
): EndgameValues {
  const quiet = options.quiet ?? false;
  const load = options.load ?? loadEndgame;
  const bar = gamesProgressBar({ quiet, label: `endgame table, ${seeds} seeds`, unit: 'boards' });
  // Where no terminal draws the bar, a line when the build starts and one when it ends.
  const announce = !quiet && options.announceBuild === true && process.stderr.isTTY !== true;
  let started: number | null = null;
  let values: EndgameValues;
  try {
    values = load(seeds, rules, {
      onProgress: (done, total) => {
        if (started === null) {
          started = performance.now();
          if (announce) {
            // Two bytes a board in the file (its bounds).
            process.stderr.write(
              `ayoayo: building the endgame table of ${seeds} seeds (${total} boards, ${sizeWords(2 * total)}) into the cache, once\n`,
            );
          }
        }
        bar.update(done, total);
      },
      onNote: (note) => {
        if (!quiet) process.stderr.write(`ayoayo: ${note}\n`);
      },
    });
  } finally {
    bar.stop();
  }
  if (announce && started !== null) {
    const seconds = (performance.now() - started) / 1000;
    process.stderr.write(
      `ayoayo: built the endgame table of ${seeds} seeds in ${seconds.toFixed(1)} s\n`,
    );
  }
  return values;
}
