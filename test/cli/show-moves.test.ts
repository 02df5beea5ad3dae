import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  formatPosition,
  illegalReason,
  initialPosition,
  outcome,
  parsePosition,
  playMove,
  renderBoard,
  START_NOTATION,
} from '../../env/index.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** Runs the real `ayoayo` entry point, as a user would. */
function ayoayo(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, ['bin/ayoayo.js', ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

// Found by searching random positions: action 5 relays forever, the others do not.
const ENDLESS = '1,4,3,2,1,6/1,0,2,4,0,2/14-8/0';
// Player 0 to move, no move feeds player 1's empty row: the game is over.
const STUCK = '1,0,0,0,1,0/0,0,0,0,0,0/23-23/0';

describe('ayoayo show', () => {
  it('draws the start by default, with its notation and legal actions', () => {
    const { status, stdout, stderr } = ayoayo('show');
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(stdout).toContain(renderBoard(initialPosition()));
    expect(stdout).toContain(`Position: ${START_NOTATION}`);
    expect(stdout).toContain('Legal actions: 0, 1, 2, 3, 4, 5');
  });

  it('draws a given position and, when it is finished, the outcome under the given rules', () => {
    const { status, stdout, stderr } = ayoayo('show', STUCK, '--rules', 'leftoverTo=owner');
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(stdout).toContain(renderBoard(parsePosition(STUCK), { over: true }));
    for (const line of stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    // A finished game has no player to move.
    expect(stdout).not.toContain('to move');
    expect(stdout).not.toMatch(/^> /m);
    expect(stdout).toContain(`Position: ${STUCK}`);
    expect(stdout).toContain('Rules:    captureSeedStays=false,leftoverTo=owner');
    // Under the default rules player 1 would win 25-23 instead.
    expect(outcome(parsePosition(STUCK), { leftoverTo: 'owner' })?.scores).toEqual([25, 23]);
    expect(stdout).toContain('Game over: player 0 wins 25-23');
  });
});

describe('a position after --', () => {
  const AFTER_MOVE_0 = '2,7,0,6,1,6/6,6,0,0,6,6/2-0/1';

  it('is the position shown and tabulated, not the start', () => {
    const show = ayoayo('show', '--', AFTER_MOVE_0);
    expect(show.stderr).toBe('');
    expect(show.status).toBe(0);
    expect(show.stdout).toContain(renderBoard(parsePosition(AFTER_MOVE_0)));
    expect(show.stdout).toContain(`Position: ${AFTER_MOVE_0}`);
    const moves = ayoayo('moves', '--', AFTER_MOVE_0);
    expect(moves.status).toBe(0);
    expect(moves.stdout).toContain(`Position: ${AFTER_MOVE_0} (player 1 to move)`);
  });

  it('must be one position', () => {
    const two = ayoayo('show', '--', AFTER_MOVE_0, START_NOTATION);
    expect(two.status).toBe(1);
    expect(two.stderr).toBe(
      `ayoayo: expected one position, got 2: ${AFTER_MOVE_0} ${START_NOTATION} (run 'ayoayo --help' for usage)\n`,
    );
  });
});

describe('ayoayo moves', () => {
  it('tabulates every action of a position', () => {
    const { status, stdout, stderr } = ayoayo('moves', START_NOTATION);
    expect(stderr).toBe('');
    expect(status).toBe(0);
    const lines = stdout.split('\n');
    expect(lines[0]).toBe(`Position: ${START_NOTATION} (player 0 to move)`);
    const header = lines.find((l) => l.startsWith('action'));
    expect(header?.split(/\s+/)).toEqual([
      'action',
      'pit',
      'result',
      'laps',
      'sown',
      'ends',
      'captures',
    ]);
    for (let action = 0; action < 6; action++) {
      const { position, report } = playMove(initialPosition(), action);
      const row = lines.find((l) => l.startsWith(`${action} `))?.split(/\s+/);
      const capture =
        report.capturedFrom === null
          ? ['-']
          : [String(report.captured), 'from', 'pit', String(report.capturedFrom)];
      expect(row).toEqual([
        String(action),
        String(action),
        formatPosition(position),
        String(report.laps),
        String(report.seedsSown),
        String(report.endPit),
        ...capture,
      ]);
    }
    // The worked example of docs/rules.md.
    expect(stdout).toMatch(/^0 +0 +2,7,0,6,1,6\/6,6,0,0,6,6\/2-0\/1 +5 +26 +2 +2 from pit 9$/m);
  });

  it('says why an action is illegal and prints JSON on request', () => {
    const { status, stdout, stderr } = ayoayo(
      'moves',
      ENDLESS,
      '--json',
      '--rules',
      'captureSeedStays=true',
    );
    expect(stderr).toBe('');
    expect(status).toBe(0);
    const rules = { captureSeedStays: true };
    const pos = parsePosition(ENDLESS);
    const report = JSON.parse(stdout) as {
      position: string;
      toMove: number;
      outcome: unknown;
      actions: Record<string, unknown>[];
    };
    expect(report.position).toBe(ENDLESS);
    expect(report.outcome).toBeNull();
    expect(report.actions).toHaveLength(6);
    report.actions.forEach((line, action) => {
      const reason = illegalReason(pos, action, rules);
      if (reason !== null) {
        expect(line).toEqual({ action, pit: action, legal: false, reason });
        return;
      }
      const { position, report: move } = playMove(pos, action, rules);
      expect(line).toEqual({
        action,
        pit: action,
        legal: true,
        position: formatPosition(position),
        laps: move.laps,
        seedsSown: move.seedsSown,
        endPit: move.endPit,
        captured: move.captured,
        capturedFrom: move.capturedFrom,
        outcome: outcome(position, rules),
      });
    });
    expect(report.actions[5]).toMatchObject({ legal: false, reason: 'endless-relay' });
  });

  it('marks every action of a finished game as game over', () => {
    const { status, stdout } = ayoayo('moves', STUCK);
    expect(status).toBe(0);
    expect(stdout).toContain('Game over: player 1 wins 23-25');
    expect(stdout.match(/illegal: game over/g)).toHaveLength(6);
  });
});

// Each case spawns a process (a second or more), so each error kind is checked once
// here; the engine's own tests cover the many ways a position or rules can be wrong.
describe('bad input', () => {
  it.each([
    ['a malformed position', ['show', '4,4,4'], /^ayoayo: invalid notation: /],
    [
      'a bad rule value',
      ['moves', START_NOTATION, '--rules', 'leftoverTo=me'],
      /^ayoayo: invalid rules: leftoverTo/,
    ],
    ['a missing position', ['moves'], /^ayoayo: moves needs a position/],
  ])('%s: one line on stderr, exit 1, no stack trace', (_name, args, message) => {
    const { status, stdout, stderr } = ayoayo(...args);
    expect(status).toBe(1);
    expect(stdout).toBe('');
    const lines = stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(message);
    expect(stderr).not.toMatch(/\bat .+:\d+/);
  });
});
