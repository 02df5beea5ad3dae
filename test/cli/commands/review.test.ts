import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { START_NOTATION } from '../../../env/index.ts';
import { runAyoayo } from '../../ayoayo-command.ts';

// The endgame table goes to a cache folder of the test's own; 10 seeds build in a moment.
const cache = mkdtempSync(join(tmpdir(), 'ayoayo-review-cache-'));
afterAll(() => rmSync(cache, { recursive: true, force: true }));

/** `ayoayo review ...args` as a user would run it, with a small endgame table unless told otherwise. */
function review(args: readonly string[]) {
  const withTable = args.includes('--endgame') ? args : [...args, '--endgame', '10'];
  // A budget no busy test machine runs out of: the solver stops as soon as a value is proven.
  const withTime = withTable.includes('--time') ? withTable : [...withTable, '--time', '120s'];
  return runAyoayo(['review', ...withTime], '', { env: { XDG_CACHE_HOME: cache } });
}

// Player 0's only action feeds player 1, who then wins whatever happens (test/solve/solver.test.ts).
const FORCED_LOSS = '0,0,0,0,1,0/1,0,0,1,1,1/20-23/0';

describe('ayoayo review', () => {
  it('prints a table of the moves with their values, marks the value-losing ones, and sums up each player', async () => {
    const { code, stdout, stderr } = await review(['0,1,4']);
    // Nothing but, where this is the table's first use, its build's two lines (a terminal or not).
    expect(stderr.replace(/^ayoayo: buil(ding|t) the endgame table of 10 seeds .*\n/gm, '')).toBe(
      '',
    );
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`Start:    ${START_NOTATION} (player 0 to move)`);
    expect(lines[2]).toMatch(/^ply\s+player\s+action\s+before\s+after\s+best$/);
    // The start is won only by action 2: action 0 throws the win away.
    expect(lines[3]).toMatch(/^0\s+0\s+0\s+win\s+loss\s+2\s+lost value$/);
    expect(lines).toContain('Player 0: 2 moves, 2 value-losing (the first at ply 0)');
    expect(lines).toContain('Player 1: 1 move, 1 value-losing (the first at ply 1)');
    expect(lines.at(-1)).toMatch(/^Final: {4}[0-9,/-]+ \(player 1 to move\)$/);
  });

  it('prints the documented JSON with --json; the one winning move flags nothing', async () => {
    const { code, stdout } = await review(['2', '--json']);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as Record<string, unknown> & {
      moves: Record<string, unknown>[];
      players: Record<string, unknown>[];
    };
    expect(Object.keys(report).sort()).toEqual(
      ['budgetMs', 'final', 'moves', 'outcome', 'players', 'rules', 'start', 'timeMs'].sort(),
    );
    expect(report.moves).toEqual([
      {
        ply: 0,
        player: 0,
        action: 2,
        position: START_NOTATION,
        before: 'win',
        after: 'win',
        error: false,
        best: [2],
      },
    ]);
    expect(report.players).toEqual([
      { player: 0, moves: 1, errors: 0, firstError: null, undecided: 0 },
      { player: 1, moves: 0, errors: 0, firstError: null, undecided: 0 },
    ]);
    expect(report.budgetMs).toBe(120_000); // the budget review() gives
    expect(report.outcome).toBeNull();
  });

  it('reviews moves from a position given with --from, under the rules given', async () => {
    const { code, stdout } = await review([
      '4',
      '--from',
      FORCED_LOSS,
      '--rules',
      'leftoverTo=opponent',
      '--json',
    ]);
    expect(code).toBe(0);
    const report = JSON.parse(stdout) as {
      start: string;
      moves: { before: string; after: string; error: boolean; best: number[] }[];
      outcome: unknown;
    };
    expect(report.start).toBe(FORCED_LOSS);
    // A lost position: its only move keeps the loss and loses nothing.
    expect(report.moves[0]).toMatchObject({
      before: 'loss',
      after: 'loss',
      error: false,
      best: [4],
    });
    const text = await review(['4', '--from', FORCED_LOSS, '--rules', 'leftoverTo=opponent']);
    expect(text.stdout).toContain('Rules:    captureSeedStays=false,leftoverTo=opponent');
  });

  it('says undecided where the budget is too short to prove a value', async () => {
    const { code, stdout } = await review(['2', '--time', '1ms', '--endgame', '0', '--no-book']);
    expect(code).toBe(0);
    expect(stdout).toMatch(/^0\s+0\s+2\s+unknown\s+unknown\s+-\s+\?$/m);
    expect(stdout).toContain(
      'Player 0: 1 move, no value-losing move, 1 undecided (not proven within 0.001 s a position)',
    );
    // The opening book knows the start and its replies whatever the budget.
    const fromBook = await review(['2', '--time', '1ms', '--endgame', '0']);
    expect(fromBook.stdout).toMatch(/^0\s+0\s+2\s+win\s+win\s+2$/m);
    expect(fromBook.stdout).toContain('Player 0: 1 move, no value-losing move\n');
  });
});
