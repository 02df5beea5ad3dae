import { core, formatPosition, positionFromState } from '../../../env/index.ts';
import type { OpeningBook } from '../book.ts';
import { KEY_BYTES, RECORD_BYTES } from '../format.ts';
import { bookLevels } from '../plan.ts';
import { type BookChunk, type BookChunkRunner, CHUNK_LEAVES } from './build-book.ts';

/** What re-solving every leaf of a book found. */
export interface FullCheckReport {
  readonly leaves: number;
  /** Leaves re-solved (fewer than `leaves` when it was stopped). */
  readonly resolved: number;
  /** Leaves whose record came out otherwise: how many, and the first (a position and what differs). */
  readonly disagree: number;
  readonly first: string | null;
}

/**
 * Re-solves every leaf of `book` from scratch on `runner` (this process's
 * threads: a foreign runner proves nothing) and compares each whole record,
 * depths too. Every other position follows from the leaves by the book's
 * replies check (checkBook), so a book that passes both is what a build
 * here would write. Stops early, with what it re-solved, when `signal` aborts.
 */
export async function resolveEveryLeaf(
  book: OpeningBook,
  runner: BookChunkRunner,
  options: { readonly onLeaf?: () => void; readonly signal?: AbortSignal } = {},
): Promise<FullCheckReport> {
  if (runner.foreign) throw new RangeError('a full check re-solves the leaves here, not elsewhere');
  const { settings } = book;
  const keys = bookLevels(settings.rules, settings.plies)[settings.plies] as Uint8Array;
  const leaves = keys.length / KEY_BYTES;
  const chunks: BookChunk[] = [];
  for (let at = 0; at < keys.length; at += CHUNK_LEAVES * KEY_BYTES) {
    chunks.push({ settings, keys: keys.subarray(at, at + CHUNK_LEAVES * KEY_BYTES) });
  }
  let resolved = 0;
  let disagree = 0;
  let first: { index: number; text: string } | null = null;
  await runner.solve(
    chunks,
    (index, records) => {
      for (let r = 0; r < records.length; r += RECORD_BYTES) {
        resolved++;
        const fresh = records.subarray(r, r + RECORD_BYTES);
        const i = book.indexOf(fresh);
        const stored =
          i < 0 ? null : book.records.subarray(i * RECORD_BYTES, (i + 1) * RECORD_BYTES);
        let differs = -1;
        for (let b = KEY_BYTES; b < RECORD_BYTES && stored !== null; b++) {
          if (fresh[b] !== stored[b]) {
            differs = b;
            break;
          }
        }
        if (stored !== null && differs < 0) continue;
        disagree++;
        const at = index * CHUNK_LEAVES + r / RECORD_BYTES;
        if (first === null || at < first.index) {
          const where = formatPosition(positionFromState(fresh.subarray(0, KEY_BYTES)));
          const what =
            stored === null
              ? 'not in the book'
              : `action ${(differs - KEY_BYTES) % core.ACTIONS} comes out otherwise`;
          first = { index: at, text: `position ${where}: ${what}` };
        }
      }
    },
    options.onLeaf ?? (() => {}),
    { nonce: 'full-check', signal: options.signal },
  );
  return { leaves, resolved, disagree, first: (first as { text: string } | null)?.text ?? null };
}
