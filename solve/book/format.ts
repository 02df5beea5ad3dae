import {
  pickRules,
  type Rules,
  type RulesInput,
  resolveRules,
  sameRules,
} from '../../env/index.ts';
import { sha256Hex } from './sha256.ts';

/**
 * The version of what a book holds: written into its file; a book of another
 * version is built again. Bump it with any change to the build (the plan, the
 * leaves' solves, how entries are derived) or to the engine's moves or the
 * solver that changes a book's contents (test/solve/book.test.ts pins a small
 * book of this version), and build the shipped book again.
 */
export const BOOK_VERSION = 1;

/** The deepest book this code builds or reads (ply 9 alone holds over a million positions). */
export const MAX_BOOK_PLIES = 9;

/** A damaged, foreign or mismatched book file. */
export class BookFileError extends Error {
  override name = 'BookFileError';
}

/**
 * One position of the book, 28 bytes: its engine state (16 bytes, the pad
 * byte 0: the key the book is sorted by), then per action 0..5 its value
 * code (VALUE_AT), then per action its proof depth (DEPTH_AT).
 */
export const KEY_BYTES = 16;
export const VALUE_AT = 16;
export const DEPTH_AT = 22;
export const RECORD_BYTES = 28;

/**
 * A move's value as one byte: 0 for an illegal action, else 1 + 3 (lo + 1) +
 * (hi + 1) for proven bounds lo <= hi on the mover's value after it (equal
 * where it is exact).
 */
export function valueCode(lo: number, hi: number): number {
  return 1 + 3 * (lo + 1) + (hi + 1);
}

/** The bounds of a value code (1..9 with lo <= hi); null for 0 or a code that is none. */
export function codeBounds(code: number): { lo: number; hi: number } | null {
  if (!Number.isInteger(code) || code < 1 || code > 9) return null;
  const lo = Math.floor((code - 1) / 3) - 1;
  const hi = ((code - 1) % 3) - 1;
  return lo <= hi ? { lo, hi } : null;
}

/**
 * log2 of the entries of the solver's table each leaf of the package's books
 * is solved with (cleared for each); the perfect player solves past the book
 * with the same, so that a proof depth means the same in and out of it.
 */
export const BOOK_TABLE_BITS = 20;

/** What a file holds: a whole book, or the leaves solved so far by a build (its resume file). */
export type BookFileKind = 'book' | 'leaves';

/** What a book was built with: the same settings build the same book, to the byte. */
export interface BookSettings {
  readonly rules: Rules;
  /** Positions reachable within this many plies of the start. */
  readonly plies: number;
  /** The endgame table's seeds the leaves were solved with (0: none). */
  readonly endgameSeeds: number;
  /** log2 of the entries of the solver's table, cleared for each leaf (its proof depths depend on it). */
  readonly tableBits: number;
}

/** Whether two books' settings are the same (the same settings build the same book). */
export function sameBookSettings(a: BookSettings, b: BookSettings): boolean {
  return (
    sameRules(a.rules, b.rules) &&
    a.plies === b.plies &&
    a.endgameSeeds === b.endgameSeeds &&
    a.tableBits === b.tableBits
  );
}

export interface BookHeader extends BookSettings {
  readonly version: number;
  readonly kind: BookFileKind;
  /** Records that follow. */
  readonly entries: number;
  /** SHA-256 of the records, in hex. */
  readonly sha256: string;
  /**
   * A resume file's build (kind 'leaves'): drawn afresh for each build and
   * kept across its restarts, it names the build's queue jobs, so that no
   * later build takes their answers.
   */
  readonly nonce?: string;
}

/** What a build's nonce looks like (hex). */
const NONCE = /^[0-9a-f]{16,64}$/;

const MAGIC = 'ayoayo-book 1\n';
/** The header's most bytes (its JSON line is about 250). */
export const MAX_BOOK_HEADER_BYTES = 4096;

/**
 * Records (RECORD_BYTES each) as a file: a text header (magic line, one JSON
 * line with the version, kind, settings, count and SHA-256), then the records.
 */
export function encodeBookFile(
  kind: BookFileKind,
  settings: BookSettings,
  records: Uint8Array,
  nonce?: string,
): Uint8Array {
  if (nonce !== undefined && (kind !== 'leaves' || !NONCE.test(nonce))) {
    throw new RangeError(`a build's nonce is hex, in its resume file only, got ${nonce}`);
  }
  const header: BookHeader = {
    version: BOOK_VERSION,
    kind,
    rules: pickRules(settings.rules),
    plies: settings.plies,
    endgameSeeds: settings.endgameSeeds,
    tableBits: settings.tableBits,
    entries: records.length / RECORD_BYTES,
    sha256: sha256Hex(records),
    ...(nonce !== undefined ? { nonce } : {}),
  };
  const head = new TextEncoder().encode(`${MAGIC}${JSON.stringify(header)}\n`);
  const out = new Uint8Array(head.length + records.length);
  out.set(head);
  out.set(records, head.length);
  return out;
}

function integerIn(value: unknown, min: number, max: number): value is number {
  return typeof value === 'number' && Number.isInteger(value) && value >= min && value <= max;
}

/** The header of a book file, checked field by field. */
function readHeader(bytes: Uint8Array): { header: BookHeader; bodyAt: number } {
  const magic = new TextDecoder().decode(bytes.subarray(0, MAGIC.length));
  if (magic !== MAGIC) throw new BookFileError('not an ayoayo opening book');
  const end = bytes.subarray(0, MAX_BOOK_HEADER_BYTES).indexOf(10, MAGIC.length);
  if (end < 0) throw new BookFileError('the book header is cut short');
  let raw: unknown;
  try {
    raw = JSON.parse(new TextDecoder().decode(bytes.subarray(MAGIC.length, end)));
  } catch {
    throw new BookFileError('the book header is not JSON');
  }
  if (typeof raw !== 'object' || raw === null) {
    throw new BookFileError('the book header is not a JSON object');
  }
  const h = raw as Record<string, unknown>;
  if (h.version !== BOOK_VERSION) {
    throw new BookFileError(
      `the book was built by other code (book version ${JSON.stringify(h.version)}, this code's is ${BOOK_VERSION})`,
    );
  }
  if (h.kind !== 'book' && h.kind !== 'leaves') {
    throw new BookFileError(`the book header has a bad kind: ${JSON.stringify(h.kind)}`);
  }
  if (!integerIn(h.plies, 0, MAX_BOOK_PLIES)) {
    throw new BookFileError(
      `the book header has bad plies: ${JSON.stringify(h.plies)} (0..${MAX_BOOK_PLIES})`,
    );
  }
  if (!integerIn(h.endgameSeeds, 0, 24) || !integerIn(h.tableBits, 1, 26)) {
    throw new BookFileError('the book header has bad solver settings (endgameSeeds, tableBits)');
  }
  if (!integerIn(h.entries, 0, 2 ** 31) || typeof h.sha256 !== 'string') {
    throw new BookFileError('the book header has no entry count or checksum');
  }
  if (
    h.nonce !== undefined &&
    (h.kind !== 'leaves' || typeof h.nonce !== 'string' || !NONCE.test(h.nonce))
  ) {
    throw new BookFileError('the book header has a bad nonce');
  }
  if (typeof h.rules !== 'object' || h.rules === null) {
    throw new BookFileError('the book header names no rules');
  }
  let rules: Rules;
  try {
    rules = resolveRules(h.rules as RulesInput);
  } catch (err) {
    throw new BookFileError(`the book header has bad rules: ${(err as Error).message}`);
  }
  const header: BookHeader = {
    version: BOOK_VERSION,
    kind: h.kind,
    rules,
    plies: h.plies,
    endgameSeeds: h.endgameSeeds,
    tableBits: h.tableBits,
    entries: h.entries,
    sha256: h.sha256,
    ...(typeof h.nonce === 'string' ? { nonce: h.nonce } : {}),
  };
  return { header, bodyAt: end + 1 };
}

/**
 * Reads a file written by encodeBookFile; throws BookFileError saying what is
 * wrong: not a book, another version, a header that does not parse, a body
 * cut short or too long, a checksum that does not match, records out of
 * order or with values no book holds. The records are a copy.
 */
export function decodeBookFile(bytes: Uint8Array): { header: BookHeader; records: Uint8Array } {
  const { header, bodyAt } = readHeader(bytes);
  const expected = header.entries * RECORD_BYTES;
  const length = bytes.length - bodyAt;
  if (length !== expected) {
    throw new BookFileError(
      `the book is ${length} bytes past its header, expected ${expected} for ${header.entries} entries${length < expected ? ' (cut short)' : ''}`,
    );
  }
  const records = new Uint8Array(bytes.subarray(bodyAt));
  if (sha256Hex(records) !== header.sha256) {
    throw new BookFileError('the book is damaged (its SHA-256 does not match)');
  }
  checkRecords(records);
  return { header, records };
}

/** Records (RECORD_BYTES each) sorted by state, in one array. */
export function sortedRecords(records: Iterable<Uint8Array>): Uint8Array {
  const list = [...records].sort((a, b) => compareKeys(a, 0, b, 0));
  const out = new Uint8Array(list.length * RECORD_BYTES);
  list.forEach((r, i) => {
    out.set(r, i * RECORD_BYTES);
  });
  return out;
}

/** Byte order of two keys: negative, 0 or positive. */
export function compareKeys(a: Uint8Array, at: number, b: Uint8Array, bt: number): number {
  for (let i = 0; i < KEY_BYTES; i++) {
    const d = (a[at + i] as number) - (b[bt + i] as number);
    if (d !== 0) return d;
  }
  return 0;
}

/** Keys strictly ascending, pad bytes 0, value codes valid, depths only for legal moves. */
function checkRecords(records: Uint8Array): void {
  const count = records.length / RECORD_BYTES;
  for (let r = 0; r < count; r++) {
    const at = r * RECORD_BYTES;
    if (r > 0 && compareKeys(records, at - RECORD_BYTES, records, at) >= 0) {
      throw new BookFileError(`the book's entry ${r} is out of order`);
    }
    if (records[at + KEY_BYTES - 1] !== 0) {
      throw new BookFileError(`the book's entry ${r} has a bad key`);
    }
    for (let a = 0; a < 6; a++) {
      const code = records[at + VALUE_AT + a] as number;
      if (code !== 0 && codeBounds(code) === null) {
        throw new BookFileError(
          `the book's entry ${r} has a bad value code ${code} for action ${a}`,
        );
      }
    }
  }
}
