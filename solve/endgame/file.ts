import { pickRules, type Rules, resolveRules } from '../../env/index.ts';
import { ENDGAME_VERSION, type EndgameValues, endgameOffsets } from './build.ts';

/** A damaged, foreign or mismatched endgame file. */
export class EndgameFileError extends Error {
  override name = 'EndgameFileError';
}

const MAGIC = 'ayoayo-endgame 1\n';

interface Header {
  /** ENDGAME_VERSION of the code that built it (files written before it was stamped: 1). */
  readonly version?: number;
  readonly maxSeeds: number;
  /** Every rule option (tables written before the rules were stored whole have none: built again). */
  readonly rules?: Rules;
  readonly boards: number;
  /** FNV-1a (32 bits) of the lo and hi bytes. */
  readonly checksum: number;
}

/** FNV-1a over the bytes, 32 bits: enough to tell a damaged file from a good one. */
function fnv1a(bytes: Uint8Array, start = 0x811c9dc5): number {
  let h = start;
  for (let i = 0; i < bytes.length; i++) h = Math.imul(h ^ (bytes[i] as number), 0x01000193);
  return h >>> 0;
}

function checksumOf(lo: Int8Array, hi: Int8Array): number {
  const loBytes = new Uint8Array(lo.buffer, lo.byteOffset, lo.length);
  const hiBytes = new Uint8Array(hi.buffer, hi.byteOffset, hi.length);
  return fnv1a(hiBytes, fnv1a(loBytes));
}

/**
 * The table as bytes: a text header (magic line, then one JSON line with the
 * table's version, seeds, rules, board count and checksum), then every board's
 * lo, then every board's hi.
 */
export function encodeEndgame(values: EndgameValues): Uint8Array {
  const header: Header = {
    version: ENDGAME_VERSION,
    maxSeeds: values.maxSeeds,
    rules: pickRules(values.rules),
    boards: values.lo.length,
    checksum: checksumOf(values.lo, values.hi),
  };
  const head = new TextEncoder().encode(`${MAGIC}${JSON.stringify(header)}\n`);
  const out = new Uint8Array(head.length + 2 * values.lo.length);
  out.set(head);
  out.set(new Uint8Array(values.lo.buffer, values.lo.byteOffset, values.lo.length), head.length);
  out.set(
    new Uint8Array(values.hi.buffer, values.hi.byteOffset, values.hi.length),
    head.length + values.lo.length,
  );
  return out;
}

/** The rules a header names; throws EndgameFileError when it names none or bad ones. */
function rulesOf(header: Header): Rules {
  if (typeof header.rules !== 'object' || header.rules === null) {
    throw new EndgameFileError(
      'the endgame table header names no rules (a table from before the rules were stored whole)',
    );
  }
  try {
    return resolveRules(header.rules);
  } catch (err) {
    throw new EndgameFileError(`the endgame table header has bad rules: ${(err as Error).message}`);
  }
}

/**
 * Reads bytes written by encodeEndgame; throws EndgameFileError saying what is
 * wrong. Where `bytes` is a whole buffer (a file read), the table's bounds are
 * views of it: it must not be changed afterwards.
 */
export function decodeEndgame(bytes: Uint8Array): EndgameValues {
  const magic = new TextDecoder().decode(bytes.subarray(0, MAGIC.length));
  if (magic !== MAGIC) throw new EndgameFileError('not an ayoayo endgame table');
  const end = bytes.indexOf(10, MAGIC.length);
  if (end < 0) throw new EndgameFileError('the endgame table header is cut short');
  let header: Header;
  try {
    header = JSON.parse(new TextDecoder().decode(bytes.subarray(MAGIC.length, end))) as Header;
  } catch {
    throw new EndgameFileError('the endgame table header is not JSON');
  }
  if (typeof header !== 'object' || header === null) {
    throw new EndgameFileError('the endgame table header is not a JSON object');
  }
  const version = header.version ?? 1;
  if (version !== ENDGAME_VERSION) {
    throw new EndgameFileError(
      `the endgame table was built by other code (table version ${JSON.stringify(version)}, this code's is ${ENDGAME_VERSION})`,
    );
  }
  const { maxSeeds, boards } = header;
  if (!Number.isInteger(maxSeeds) || maxSeeds < 0 || maxSeeds > 24) {
    throw new EndgameFileError(
      `the endgame table header has a bad seed count: ${String(maxSeeds)}`,
    );
  }
  const rules = rulesOf(header);
  const offsets = endgameOffsets(maxSeeds);
  if (boards !== offsets[maxSeeds + 1] || bytes.length - end - 1 !== 2 * boards) {
    throw new EndgameFileError(
      `the endgame table is ${bytes.length - end - 1} bytes long, expected ${2 * (offsets[maxSeeds + 1] as number)} for ${maxSeeds} seeds`,
    );
  }
  // Views of the file's own buffer (a 16-seed table is 61 MB); a copy where
  // `bytes` is a view into a larger one (Node's pooled Buffers), not to keep it.
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength;
  const view = new Int8Array(bytes.buffer, bytes.byteOffset + end + 1, 2 * boards);
  const body = whole ? view : view.slice();
  const lo = body.subarray(0, boards);
  const hi = body.subarray(boards);
  if (checksumOf(lo, hi) !== header.checksum) {
    throw new EndgameFileError('the endgame table is damaged (its checksum does not match)');
  }
  return {
    maxSeeds,
    rules,
    offsets,
    lo,
    hi,
  };
}
