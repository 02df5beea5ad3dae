import { formatRules, rulesKey } from '../../../env/index.ts';
import { type BookSettings, KEY_BYTES } from '../format.ts';
import { bookLevels } from '../plan.ts';
import { FIRST_USE_BOOK_PLIES } from './book-cache.ts';

/**
 * Mean CPU seconds a leaf of the FIRST_USE_BOOK_PLIES book takes, by rules
 * (rulesKey), measured with `BOOK_BENCH_RULES=R BOOK_BENCH_PARTS=cost
 * BOOK_BENCH_PLIES=4 BOOK_BENCH_FROM_PLIES=4 npm run bench -- book` on a
 * loaded 2-core machine (docs/solver.md, "What ships"; where the
 * capturing seed stays, a few leaves take minutes, so the mean of a sample
 * is rough): what a first-use build announces before it starts.
 */
const FIRST_USE_LEAF_CPU_SECONDS: Readonly<Record<string, number>> = {
  'seed-captured-leftover-opponent': 0.26,
  'seed-captured-leftover-owner': 0.7,
  'seed-stays-leftover-opponent': 18.7,
  'seed-stays-leftover-owner': 27.3,
};

/** A duration in words: seconds under two minutes, then minutes, then hours. */
export function durationWords(seconds: number): string {
  if (seconds < 120) return `${Math.max(1, Math.round(seconds))} s`;
  if (seconds < 2 * 3600) return `${Math.round(seconds / 60)} min`;
  return `${(seconds / 3600).toFixed(1)} h`;
}

/** What building a book costs, in words: its leaves, and about how long on `threads` threads where that is known. */
export function bookCostWords(
  leaves: number,
  leafCpuSeconds: number | undefined,
  threads: number | undefined,
): string {
  const count = `${leaves.toLocaleString('en-US')} leaves to solve`;
  if (leafCpuSeconds === undefined) return count;
  const cpu = leaves * leafCpuSeconds;
  const wall =
    threads !== undefined && threads > 1
      ? `, about ${durationWords(cpu / threads)} on ${threads} threads (more on a busy machine)`
      : '';
  return `${count}, about ${durationWords(cpu)} of CPU${wall}`;
}

/**
 * The line a first-use build of `settings` says before it starts: what it
 * builds, where, about how long, and how to build it ahead of time.
 */
export function firstUseAnnouncement(settings: BookSettings, threads: number | undefined): string {
  const leaves = (bookLevels(settings.rules, settings.plies)[settings.plies] as Uint8Array).length;
  const perLeaf =
    settings.plies === FIRST_USE_BOOK_PLIES
      ? FIRST_USE_LEAF_CPU_SECONDS[rulesKey(settings.rules)]
      : undefined;
  const rules = formatRules(settings.rules);
  return `building the opening book of ${settings.plies} ${settings.plies === 1 ? 'ply' : 'plies'} under ${rules} into the cache, once (${bookCostWords(leaves / KEY_BYTES, perLeaf, threads)}; \`ayoayo book build --rules ${rules} --plies ${settings.plies}\` builds it ahead)`;
}
