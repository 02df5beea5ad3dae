import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  core,
  DEFAULT_RULE_CODE,
  DEFAULT_RULES,
  type Rules,
  resolveRules,
} from '../../env/index.ts';
import { endgamePath, loadEndgame } from '../../solve/endgame/cache/table-cache.ts';
import { boardsOf, unrankBoard } from '../../solve/endgame/rank.ts';
import {
  buildEndgame,
  checkEndgame,
  decodeEndgame,
  type EndgameValues,
  encodeEndgame,
  NO_LOWER,
  NO_UPPER,
} from '../../solve/index.ts';

// A table rewritten wrong, its checksum computed again, must be refused when
// read and built again (issue 43, item 7).

const SEEDS = 8;
/** Rules whose table of 8 seeds has boards of unequal bounds (endless play decides them). */
const STAYS = resolveRules({ captureSeedStays: true });
const tables = new Map<Rules, EndgameValues>([
  [DEFAULT_RULES, buildEndgame(SEEDS, DEFAULT_RULES)],
  [STAYS, buildEndgame(SEEDS, STAYS)],
]);
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The table with `edit` applied to a copy of its bounds. */
function tampered(
  table: EndgameValues,
  edit: (lo: Int8Array, hi: Int8Array, table: EndgameValues) => void,
): EndgameValues {
  const lo = table.lo.slice();
  const hi = table.hi.slice();
  edit(lo, hi, table);
  return { ...table, lo, hi };
}

/** The mover's margin turned round: lo and hi trade places, negated. */
function negate(lo: Int8Array, hi: Int8Array, i: number): void {
  const l = lo[i] as number;
  const h = hi[i] as number;
  lo[i] = h === NO_UPPER ? NO_LOWER : -h;
  hi[i] = l === NO_LOWER ? NO_UPPER : -l;
}

/** Whether the mover of board `i` of `n` seeds has a legal move (a board the game goes on from). */
function goesOn(table: EndgameValues, n: number, i: number): boolean {
  const state = new Uint8Array(core.STATE_SIZE);
  unrankBoard(i - (table.offsets[n] as number), n, state);
  return core.legalMask(state, DEFAULT_RULE_CODE) !== 0;
}

/** Negates every board of `n` seeds whose game goes on and whose value is not 0. */
function negateLayer(n: number) {
  return (lo: Int8Array, hi: Int8Array, table: EndgameValues): void => {
    const from = table.offsets[n] as number;
    for (let i = from; i < from + boardsOf(n); i++) {
      if (goesOn(table, n, i)) negate(lo, hi, i);
    }
  };
}

const TAMPERINGS: readonly {
  readonly name: string;
  /** The table's rules (default: the default rules). */
  readonly rules?: Rules;
  readonly edit: (lo: Int8Array, hi: Int8Array, table: EndgameValues) => void;
  readonly refusal: RegExp;
}[] = [
  {
    name: 'every value negated',
    edit: (lo, hi) => {
      for (let i = 0; i < lo.length; i++) negate(lo, hi, i);
    },
    refusal: /^the endgame table fails its end-of-game check: board /,
  },
  {
    name: 'lo and hi swapped',
    rules: STAYS,
    edit: (lo, hi) => {
      const l = lo.slice();
      lo.set(hi);
      hi.set(l);
    },
    refusal:
      /^the endgame table fails its bound order check: board .* holds lo -?\d+ above hi -?\d+$/,
  },
  {
    name: 'one value out of its range',
    edit: (lo, hi, table) => {
      const i = (table.offsets[3] as number) + 5;
      lo[i] = 20;
      hi[i] = 20;
    },
    refusal:
      /^the endgame table fails its range check: board [\d,/]+ \(3 seeds\) holds 20\.\.20, not margins in -3\.\.3 of 3's parity$/,
  },
  {
    name: 'one value of the wrong parity',
    edit: (lo, hi, table) => {
      const i = (table.offsets[4] as number) + 7;
      lo[i] = 1;
      hi[i] = 1;
    },
    refusal: /^the endgame table fails its range check: board .* \(4 seeds\) holds 1\.\.1/,
  },
  {
    name: 'the mover of an empty row given the board',
    edit: (lo, hi, table) => {
      // Board 0 of n seeds: all of them in the opponent's last pit, the mover cannot move.
      const i = table.offsets[6] as number;
      lo[i] = 6;
      hi[i] = 6;
    },
    refusal:
      /^the endgame table fails its end-of-game check: board 0,0,0,0,0,0\/0,0,0,0,0,6 \(6 seeds\), where the mover cannot move, holds 6\.\.6; the engine's outcome gives -6$/,
  },
  {
    name: 'the boards of 5 seeds negated where the game goes on',
    edit: negateLayer(5),
    refusal:
      /^the endgame table fails its rebuild check: board .* \(5 seeds\) holds .*; a fresh build gives /,
  },
  {
    name: 'the boards of 8 seeds negated where the game goes on',
    edit: negateLayer(8),
    refusal:
      /^the endgame table fails its sample check: board .* \(8 seeds\) holds .*; its moves give /,
  },
];

describe('an endgame table read from a file', () => {
  it('passes its checks as built, under each rule set', () => {
    for (const table of tables.values()) expect(() => checkEndgame(table)).not.toThrow();
    const owner = buildEndgame(SEEDS, resolveRules({ leftoverTo: 'owner' }));
    expect(() => checkEndgame(owner, { seed: 7, samples: 100 })).not.toThrow();
  });

  for (const { name, rules = DEFAULT_RULES, edit, refusal } of TAMPERINGS) {
    it(`is refused and built again with ${name}, its checksum computed again`, () => {
      const dir = mkdtempSync(join(tmpdir(), 'ayoayo-endgame-check-'));
      dirs.push(dir);
      const path = endgamePath(dir, SEEDS, rules);
      const good = tables.get(rules) as EndgameValues;
      const bad = tampered(good, edit);
      writeFileSync(path, encodeEndgame(bad));
      // The checksum is right: only the checks of what it holds can tell.
      expect(() => decodeEndgame(readFileSync(path))).not.toThrow();
      const notes: string[] = [];
      let built = false;
      const table = loadEndgame(SEEDS, rules, {
        dir,
        onNote: (note) => notes.push(note),
        onProgress: () => {
          built = true;
        },
      });
      expect(notes).toHaveLength(1);
      const prefix = `${path}: `;
      const suffix = ': building it again';
      expect(notes[0]?.startsWith(prefix) && notes[0].endsWith(suffix), notes[0]).toBe(true);
      expect(notes[0]?.slice(prefix.length, -suffix.length)).toMatch(refusal);
      expect(built).toBe(true);
      expect(Buffer.from(table.lo.buffer, table.lo.byteOffset, table.lo.length)).toEqual(
        Buffer.from(good.lo.buffer, good.lo.byteOffset, good.lo.length),
      );
      expect(Buffer.from(table.hi.buffer, table.hi.byteOffset, table.hi.length)).toEqual(
        Buffer.from(good.hi.buffer, good.hi.byteOffset, good.hi.length),
      );
      // The file now holds the good table: read, not built, the next time.
      const again: string[] = [];
      loadEndgame(SEEDS, rules, { dir, onNote: (n) => again.push(n) });
      expect(again).toEqual([]);
    });
  }

  it("is built again when another version of the code wrote it, and read when it is this code's", () => {
    const dir = mkdtempSync(join(tmpdir(), 'ayoayo-endgame-version-'));
    dirs.push(dir);
    const path = endgamePath(dir, 6, DEFAULT_RULES);
    const table = buildEndgame(6, DEFAULT_RULES);
    const text = Buffer.from(encodeEndgame(table)).toString('latin1');
    expect(text).toMatch(/^ayoayo-endgame 1\n\{"version":1,/);
    writeFileSync(path, Buffer.from(text.replace('"version":1,', '"version":2,'), 'latin1'));
    const notes: string[] = [];
    loadEndgame(6, DEFAULT_RULES, { dir, onNote: (n) => notes.push(n) });
    expect(notes).toEqual([
      `${path}: the endgame table was built by other code (table version 2, this code's is 1): building it again`,
    ]);
    expect(readFileSync(path, 'latin1')).toBe(text);
    // A file written before tables carried a version holds version 1's contents.
    writeFileSync(path, Buffer.from(text.replace('"version":1,', ''), 'latin1'));
    const read: string[] = [];
    loadEndgame(6, DEFAULT_RULES, {
      dir,
      onNote: (n) => read.push(n),
      onProgress: () => read.push('built'),
    });
    expect(read).toEqual([]);
  });
});
