import { mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import {
  DEFAULT_RULES,
  formatPosition,
  legalActions,
  type Position,
  parsePosition,
  position,
  type Rules,
  resolveRules,
} from '../../env/index.ts';
import { loadEndgameShowingProgress } from '../../solve/endgame/cache/progress.ts';
import {
  type EndgameCacheOptions,
  endgamePath,
  loadEndgame,
} from '../../solve/endgame/cache/table-cache.ts';
import {
  boardsOf,
  MOVER_0_ORDER,
  MOVER_1_ORDER,
  rankBoard,
  unrankBoard,
} from '../../solve/endgame/rank.ts';
import {
  buildEndgame,
  decodeEndgame,
  type EndgameValues,
  encodeEndgame,
  endgameOffsets,
  NO_LOWER,
  NO_UPPER,
  Solver,
  signValue,
  solve,
} from '../../solve/index.ts';
import { type OracleValue, oracleValues } from './oracle.ts';
import { smallPositions } from './positions.ts';

const VARIANTS: readonly Rules[] = [
  DEFAULT_RULES,
  resolveRules({ captureSeedStays: true }),
  resolveRules({ leftoverTo: 'owner' }),
];
const BUDGET = { timeMs: 20_000 };
const tables = new Map<Rules, EndgameValues>(VARIANTS.map((r) => [r, buildEndgame(7, r)]));
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
});

/** The table's bounds on a position's value (its board read from the mover's row), -1..1. */
function tableBounds(table: EndgameValues, pos: Position): [number, number] {
  const state = pos.toState();
  const seeds = pos.pits.reduce((a, b) => a + b, 0);
  const order = pos.toMove === 0 ? MOVER_0_ORDER : MOVER_1_ORDER;
  const i = (table.offsets[seeds] as number) + rankBoard(state, 0, order, seeds);
  const lo = table.lo[i] as number;
  const hi = table.hi[i] as number;
  const margin = (pos.stores[pos.toMove] as number) - (pos.stores[1 - pos.toMove] as number);
  return [
    lo === NO_LOWER ? -1 : signValue(margin + lo),
    hi === NO_UPPER ? 1 : signValue(margin + hi),
  ];
}

describe('board ranks', () => {
  it('number the boards of n seeds 0.. C(n + 11, 11) - 1, one to one', () => {
    const pits = new Uint8Array(16);
    for (const n of [0, 1, 2, 5]) {
      expect(boardsOf(n)).toBe([1, 12, 78, 4368][[0, 1, 2, 5].indexOf(n)]);
      const seen = new Set<string>();
      for (let r = 0; r < boardsOf(n); r++) {
        unrankBoard(r, n, pits);
        expect(pits.subarray(0, 12).reduce((a, b) => a + b, 0)).toBe(n);
        seen.add(pits.subarray(0, 12).join(','));
        expect(rankBoard(pits, 0, MOVER_0_ORDER, n)).toBe(r);
      }
      expect(seen.size).toBe(boardsOf(n));
    }
  });
});

describe('the endgame table', () => {
  it.each(VARIANTS)('bounds every small position soundly, and mostly exactly (%j)', (rules) => {
    const table = tables.get(rules) as EndgameValues;
    let exact = 0;
    let checked = 0;
    const known = new Map<string, OracleValue>();
    for (const pos of smallPositions(21, 100, [1, 2, 3, 4, 5], rules)) {
      const key = formatPosition(pos);
      if (!known.has(key)) for (const [k, v] of oracleValues(pos, rules)) known.set(k, v);
      const truth = known.get(key) as OracleValue;
      const [lo, hi] = tableBounds(table, pos);
      if (truth !== null) {
        expect(lo, key).toBeLessThanOrEqual(truth);
        expect(hi, key).toBeGreaterThanOrEqual(truth);
        checked++;
      }
      if (lo === hi) exact++;
    }
    expect(checked).toBeGreaterThan(90);
    // Only where a store reaches 25 can the table be looser than the game.
    expect(exact).toBeGreaterThan(checked * 0.9);
  });

  it.each(VARIANTS)('leaves every answer of the solver as it was (%j)', (rules) => {
    const table = tables.get(rules) as EndgameValues;
    const plain = new Solver({ rules });
    const withTable = new Solver({ rules, endgame: table });
    let lookedUp = 0;
    for (const pos of smallPositions(22, 40, [5, 6, 7, 8, 9], rules, 2)) {
      const a = plain.solveState(pos.toState(), BUDGET);
      const b = withTable.solveState(pos.toState(), BUDGET);
      expect(a.complete && b.complete).toBe(true);
      expect([b.lo, b.hi, [...b.moveLo], [...b.moveHi]]).toEqual([
        a.lo,
        a.hi,
        [...a.moveLo],
        [...a.moveHi],
      ]);
      if (b.nodes < a.nodes) lookedUp++;
    }
    expect(lookedUp).toBeGreaterThan(20);
  });

  it('never decides what endless play leaves open', () => {
    // test/solve/solver.test.ts: with captureSeedStays, only endless play saves player 1 here.
    const stays = VARIANTS[1] as Rules;
    const endless = parsePosition('0,0,0,1,0,1/1,0,0,1,1,1/21-21/1');
    expect(oracleValues(endless, stays).get(formatPosition(endless))).toBeNull();
    expect(tableBounds(tables.get(stays) as EndgameValues, endless)).toEqual([-1, 1]);
    const solution = solve(endless, { rules: stays, endgame: tables.get(stays), budget: BUDGET });
    expect(solution.value).toBe('unknown');
    expect(solution.moves.filter((m) => m.value === 'loss').length).toBe(3);
  });

  it('refuses a table built for other rules', () => {
    const other = tables.get(VARIANTS[1] as Rules) as EndgameValues;
    expect(() => new Solver({ rules: DEFAULT_RULES, endgame: other })).toThrow(/other rules/);
    const pos = position({
      pits: [1, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 0],
      stores: [23, 23],
      toMove: 0,
    });
    expect(legalActions(pos).length).toBeGreaterThan(0);
    expect(() => solve(pos, { endgame: other })).toThrow(
      'invalid solve options: endgame: the table was built for other rules',
    );
  });
});

describe('endgame files', () => {
  const table = tables.get(DEFAULT_RULES) as EndgameValues;

  it('read back what was written', () => {
    const back = decodeEndgame(encodeEndgame(table));
    expect(back.maxSeeds).toBe(7);
    expect([...back.offsets]).toEqual([...table.offsets]);
    expect(Buffer.from(back.lo.buffer, back.lo.byteOffset, back.lo.length)).toEqual(
      Buffer.from(table.lo.buffer, table.lo.byteOffset, table.lo.length),
    );
    expect(Buffer.from(back.hi.buffer, back.hi.byteOffset, back.hi.length)).toEqual(
      Buffer.from(table.hi.buffer, table.hi.byteOffset, table.hi.length),
    );
  });

  it('carry their rules whole, and refuse a header with none or bad ones', () => {
    for (const rules of [
      DEFAULT_RULES,
      resolveRules({ captureSeedStays: true, leftoverTo: 'owner' }),
    ]) {
      const bytes = encodeEndgame({ ...table, rules });
      const text = Buffer.from(bytes).toString('latin1');
      expect(text).toContain(`"rules":${JSON.stringify(rules)}`);
      expect(decodeEndgame(bytes).rules).toEqual(rules);
    }
    const text = Buffer.from(encodeEndgame(table)).toString('latin1');
    const header = `"rules":${JSON.stringify(DEFAULT_RULES)}`;
    // The header of the tables written before the rules were stored whole.
    const before = text.replace(header, '"captureSeedStays":false,"leftoverToOwner":false');
    expect(() => decodeEndgame(Buffer.from(before, 'latin1'))).toThrow(
      'the endgame table header names no rules (a table from before the rules were stored whole)',
    );
    const bad = text.replace(header, '"rules":{"leftoverTo":"nobody"}');
    expect(() => decodeEndgame(Buffer.from(bad, 'latin1'))).toThrow(
      /^the endgame table header has bad rules: invalid rules: leftoverTo: /,
    );
  });

  it('written before the rules were stored whole are built again under their old names', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ayoayo-endgame-'));
    dirs.push(dir);
    const rules = resolveRules({ leftoverTo: 'owner' });
    const path = endgamePath(dir, 6, rules);
    expect(path).toBe(join(dir, 'endgame-6-seed-captured-leftover-owner.bin'));
    const text = Buffer.from(encodeEndgame(buildEndgame(6, rules))).toString('latin1');
    const before = text.replace(
      `"rules":${JSON.stringify(rules)}`,
      '"captureSeedStays":false,"leftoverToOwner":true',
    );
    writeFileSync(path, Buffer.from(before, 'latin1'));
    const notes: string[] = [];
    expect(loadEndgame(6, rules, { dir, onNote: (n) => notes.push(n) }).rules).toEqual(rules);
    expect(notes).toEqual([
      `${path}: the endgame table header names no rules (a table from before the rules were stored whole): building it again`,
    ]);
    expect(readFileSync(path, 'latin1')).toBe(text);
  });

  it('say what is wrong with a damaged, cut or foreign file', () => {
    const bytes = encodeEndgame(table);
    const damaged = bytes.slice();
    damaged[damaged.length - 10] = (damaged[damaged.length - 10] as number) ^ 1;
    expect(() => decodeEndgame(damaged)).toThrow(
      'the endgame table is damaged (its checksum does not match)',
    );
    expect(() => decodeEndgame(bytes.subarray(0, bytes.length - 1))).toThrow(
      /bytes long, expected/,
    );
    expect(() => decodeEndgame(new TextEncoder().encode('hello'))).toThrow(
      'not an ayoayo endgame table',
    );
  });

  it('are built once into the cache folder, then read; a damaged one is built again', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ayoayo-endgame-'));
    dirs.push(dir);
    const progress: number[] = [];
    const first = loadEndgame(5, DEFAULT_RULES, { dir, onProgress: (done) => progress.push(done) });
    const path = endgamePath(dir, 5, DEFAULT_RULES);
    expect(progress.at(-1)).toBe(first.lo.length);
    const written = statSync(path).mtimeMs;
    const notes: string[] = [];
    const again = loadEndgame(5, DEFAULT_RULES, {
      dir,
      onProgress: () => notes.push('built'),
      onNote: (n) => notes.push(n),
    });
    expect(notes).toEqual([]);
    expect(statSync(path).mtimeMs).toBe(written);
    expect([...again.lo]).toEqual([...first.lo]);
    const bytes = readFileSync(path);
    bytes[bytes.length - 1] = (bytes[bytes.length - 1] as number) ^ 1;
    writeFileSync(path, bytes);
    const rebuilt = loadEndgame(5, DEFAULT_RULES, { dir, onNote: (n) => notes.push(n) });
    expect(notes).toEqual([
      `${path}: the endgame table is damaged (its checksum does not match): building it again`,
    ]);
    expect([...rebuilt.hi]).toEqual([...first.hi]);
    expect(decodeEndgame(readFileSync(path)).lo.length).toBe(first.lo.length);
  });

  it('say on stderr, where no bar is drawn, that a table is being built and how long it took, once, and nothing when read', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ayoayo-endgame-'));
    dirs.push(dir);
    const load = (seeds: number, rules: Rules, options: EndgameCacheOptions) =>
      loadEndgame(seeds, rules, { ...options, dir });
    const written: string[] = [];
    const write = vi.spyOn(process.stderr, 'write').mockImplementation((chunk) => {
      written.push(String(chunk));
      return true;
    });
    const tty = process.stderr.isTTY;
    process.stderr.isTTY = false;
    try {
      loadEndgameShowingProgress(5, DEFAULT_RULES, { announceBuild: true, load });
      loadEndgameShowingProgress(5, DEFAULT_RULES, { announceBuild: true, load });
      loadEndgameShowingProgress(4, DEFAULT_RULES, { announceBuild: true, quiet: true, load });
      loadEndgameShowingProgress(3, DEFAULT_RULES, { load });
    } finally {
      process.stderr.isTTY = tty;
      write.mockRestore();
    }
    expect(written).toEqual([
      `ayoayo: building the endgame table of 5 seeds (${endgameOffsets(5)[6]} boards, ${Math.round((2 * (endgameOffsets(5)[6] as number)) / 1e3)} KB) into the cache, once\n`,
      expect.stringMatching(/^ayoayo: built the endgame table of 5 seeds in \d+\.\d s\n$/),
    ]);
  });
});
