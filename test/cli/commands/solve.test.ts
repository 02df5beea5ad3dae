import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { resolveRules, START_NOTATION } from '../../../env/index.ts';
import { endgameOffsets } from '../../../solve/endgame/build.ts';
import { endgamePath, loadEndgame } from '../../../solve/endgame/cache/table-cache.ts';
import { decodeEndgame, encodeEndgame, NO_LOWER, NO_UPPER } from '../../../solve/index.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));
// The endgame tables go to a cache folder of the test's own.
const cache = mkdtempSync(join(tmpdir(), 'ayoayo-solve-cache-'));
afterAll(() => rmSync(cache, { recursive: true, force: true }));

/** `ayoayo solve ...args` as a user would run it, with a small endgame table unless told otherwise. */
function runAyoayo(args: readonly string[]): {
  code: number | null;
  stdout: string;
  stderr: string;
} {
  const withTable = args.some((a) => a.startsWith('--endgame'))
    ? args
    : [...args, '--endgame', '6'];
  const run = spawnSync(process.execPath, ['bin/ayoayo.js', ...withTable], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
    env: { ...process.env, XDG_CACHE_HOME: cache },
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

// Player 0's action 4 captures 3 + 1 and reaches 26: a win at once.
const ONE_MOVE_WIN = '2,0,0,0,1,0/3,0,0,0,0,0/22-20/0';
// With captureSeedStays, player 1 escapes a loss only by playing round for ever (test/solve).
const ENDLESS = '0,0,0,1,0,1/1,0,0,1,1,1/21-21/1';

describe('ayoayo solve', () => {
  it('prints the value of the position and a table of its moves', () => {
    const { code, stdout, stderr } = runAyoayo(['solve', ONE_MOVE_WIN]);
    // Nothing but, where this is the table's first use, its build's two lines (a terminal or not).
    expect(stderr.replace(/^ayoayo: buil(ding|t) the endgame table of 6 seeds .*\n/gm, '')).toBe(
      '',
    );
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`Position: ${ONE_MOVE_WIN} (player 0 to move)`);
    expect(lines[1]).toMatch(
      /^Value: {4}win for player 0 \(proven at depth \d+; [\d,]+ nodes in [\d.]+ s\)$/,
    );
    expect(lines[3]).toMatch(/^action\s+pit\s+value$/);
    expect(lines).toContainEqual(expect.stringMatching(/^4\s+4\s+win\s+best$/));
  });

  it('prints one JSON object with --json: values, bounds, proof depth, nodes, time, rules', () => {
    const { code, stdout } = runAyoayo(['solve', ONE_MOVE_WIN, '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as {
      value: string;
      moves: { action: number; value: string }[];
      bestActions: number[];
      depth: number;
      nodes: number;
      timeMs: number;
      complete: boolean;
      rules: { captureSeedStays: boolean };
    };
    expect(report.value).toBe('win');
    expect(report.moves.map((m) => m.action)).toEqual([0, 4]);
    expect(report.bestActions).toContain(4);
    expect(report.complete).toBe(true);
    expect(report.depth).toBeGreaterThan(0);
    expect(report.nodes).toBeGreaterThan(0);
    expect(report.rules.captureSeedStays).toBe(false);
  });

  it('says unknown, and why, where the budget runs out or endless play decides', () => {
    const start = runAyoayo(['solve', '--time', '200ms', '--no-book']);
    expect(start.code).toBe(0);
    expect(start.stdout).toContain(`Position: ${START_NOTATION}`);
    expect(start.stdout).toMatch(/Value: {4}unknown for player 0 \(budget spent at depth \d+;/);
    const endless = runAyoayo(['solve', ENDLESS, '--rules', 'captureSeedStays=true']);
    expect(endless.code).toBe(0);
    expect(endless.stdout).toContain('Rules:    captureSeedStays=true,leftoverTo=opponent');
    expect(endless.stdout).toContain(
      'unknown for player 1 (still open at the deepest search, 250 plies: endless play may decide it;',
    );
    expect(endless.stdout).toMatch(/^0\s+6\s+loss$/m);
    // A proven win with one move (action 5) whose value only endless play would settle.
    const move = runAyoayo([
      'solve',
      '1,0,0,1,0,1/1,0,0,0,0,1/22-21/0',
      '--rules',
      'captureSeedStays=true',
    ]);
    expect(move.stdout).toMatch(/Value: {4}win for player 0/);
    expect(move.stdout).toMatch(/^5\s+5\s+unknown$/m);
    expect(move.stdout).toContain(
      'Moves marked unknown are still open at the deepest search (250 plies): endless play may decide them.',
    );
  });

  it("answers a position of the opening book from the package's book, and says so", () => {
    const { code, stdout } = runAyoayo(['solve']);
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[1]).toMatch(
      /^Value: {4}win for player 0 \(from the opening book of 6 plies; \d+\.\d s\)$/,
    );
    expect(lines).toContainEqual(expect.stringMatching(/^2\s+2\s+win\s+best$/));
    const json = JSON.parse(runAyoayo(['solve', '--json']).stdout) as Record<string, unknown>;
    expect(json).toMatchObject({ value: 'win', bestActions: [2], source: 'book', bookPlies: 6 });
    // Out of the book (ply 8 of a game), the solver answers.
    const deeper = JSON.parse(runAyoayo(['solve', ONE_MOVE_WIN, '--json']).stdout) as {
      source: string;
    };
    expect(deeper.source).toBe('solver');
  });

  it('reports a finished game', () => {
    const { code, stdout } = runAyoayo(['solve', '1,0,0,0,1,0/0,0,0,0,0,0/23-23/0']);
    expect(code).toBe(0);
    expect(stdout).toContain('Game over: player 1 wins 23-25');
  });

  it('builds its endgame table once into the cache folder, then reads it', () => {
    const args = ['solve', ONE_MOVE_WIN, '--endgame', '5', '--json'];
    const first = runAyoayo(args);
    expect(first.code).toBe(0);
    const file = join(cache, 'ayoayo', 'endgame-5-seed-captured-leftover-opponent.bin');
    expect(existsSync(file)).toBe(true);
    const second = runAyoayo(args);
    expect((JSON.parse(second.stdout) as { value: string }).value).toBe('win');
  });

  /** `ayoayo solve ONE_MOVE_WIN --endgame SEEDS` with its cache folder under `home`. */
  const solveWithCache = (home: string, seeds: string) =>
    spawnSync(process.execPath, ['bin/ayoayo.js', 'solve', ONE_MOVE_WIN, '--endgame', seeds], {
      cwd: root,
      encoding: 'utf8',
      timeout: 60_000,
      env: { ...process.env, XDG_CACHE_HOME: home },
    });

  it("where a folder stands at the table's path, says so, solves, and leaves no file behind", () => {
    const home = mkdtempSync(join(tmpdir(), 'ayoayo-solve-folder-'));
    try {
      const dir = join(home, 'ayoayo');
      const path = endgamePath(dir, 6, resolveRules({}));
      mkdirSync(path, { recursive: true });
      for (let run = 0; run < 2; run++) {
        const solved = solveWithCache(home, '6');
        expect(solved.status).toBe(0);
        expect(solved.stderr.split('\n')).toEqual([
          `ayoayo: ${path} is a folder, not an endgame table: building the table without saving it`,
          `ayoayo: building the endgame table of 6 seeds (${endgameOffsets(6)[7]} boards, 37 KB) into the cache, once`,
          expect.stringMatching(/^ayoayo: built the endgame table of 6 seeds in \d+\.\d s$/),
          '',
        ]);
        expect(solved.stdout).toMatch(/^4\s+4\s+win\s+best$/m);
      }
      expect(readdirSync(dir)).toEqual(['endgame-6-seed-captured-leftover-opponent.bin']);
      expect(readdirSync(path)).toEqual([]);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });

  it('refuses a cached table rewritten wrong with a fresh checksum, says why, and builds it again', () => {
    const home = mkdtempSync(join(tmpdir(), 'ayoayo-solve-tampered-'));
    try {
      const rules = resolveRules({});
      const dir = join(home, 'ayoayo');
      const table = loadEndgame(8, rules, { dir });
      // Every margin turned round: the mover's wins become the opponent's.
      const lo = table.hi.map((h) => (h === NO_UPPER ? NO_LOWER : -h));
      const hi = table.lo.map((l) => (l === NO_LOWER ? NO_UPPER : -l));
      const path = endgamePath(dir, 8, rules);
      writeFileSync(path, encodeEndgame({ ...table, lo, hi }));
      const run = solveWithCache(home, '8');
      expect(run.status).toBe(0);
      expect(run.stderr).toMatch(
        new RegExp(
          `^ayoayo: ${path.replace(/[.]/g, '\\.')}: the endgame table fails its end-of-game check: board [^\n]*: building it again\n`,
        ),
      );
      // Action 0 only draws: the wrong table made it a win.
      expect(run.stdout).toMatch(/^0\s+0\s+draw$/m);
      expect(run.stdout).toMatch(/^4\s+4\s+win\s+best$/m);
      expect(decodeEndgame(readFileSync(path)).lo).toEqual(table.lo);
    } finally {
      rmSync(home, { recursive: true, force: true });
    }
  });
});
