import { describe, expect, it } from 'vitest';
import { START_NOTATION } from '../../../env/index.ts';
import { runAyoayo } from '../../ayoayo-command.ts';

// Player 0's action 4 captures 3 + 1 and reaches 26: a win at once.
const ONE_MOVE_WIN = '2,0,0,0,1,0/3,0,0,0,0,0/22-20/0';
// With captureSeedStays, player 1 escapes a loss only by playing round for ever (test/solve).
const ENDLESS = '0,0,0,1,0,1/1,0,0,1,1,1/21-21/1';

describe('ayoayo solve', () => {
  it('prints the value of the position and a table of its moves', async () => {
    const { code, stdout, stderr } = await runAyoayo(['solve', ONE_MOVE_WIN]);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    const lines = stdout.trimEnd().split('\n');
    expect(lines[0]).toBe(`Position: ${ONE_MOVE_WIN} (player 0 to move)`);
    expect(lines[1]).toMatch(
      /^Value: {4}win for player 0 \(proven at depth \d+; [\d,]+ nodes in [\d.]+ s\)$/,
    );
    expect(lines[3]).toMatch(/^action\s+pit\s+value$/);
    expect(lines).toContainEqual(expect.stringMatching(/^4\s+4\s+win\s+best$/));
  });

  it('prints one JSON object with --json: values, bounds, proof depth, nodes, time, rules', async () => {
    const { code, stdout } = await runAyoayo(['solve', ONE_MOVE_WIN, '--json']);
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

  it('says unknown, and why, where the budget runs out or endless play decides', async () => {
    const start = await runAyoayo(['solve', '--time', '200ms']);
    expect(start.code).toBe(0);
    expect(start.stdout).toContain(`Position: ${START_NOTATION}`);
    expect(start.stdout).toMatch(/Value: {4}unknown for player 0 \(budget spent at depth \d+;/);
    const endless = await runAyoayo(['solve', ENDLESS, '--rules', 'captureSeedStays=true']);
    expect(endless.code).toBe(0);
    expect(endless.stdout).toContain('Rules:    captureSeedStays=true,leftoverTo=opponent');
    expect(endless.stdout).toContain(
      'unknown for player 1 (still open at the deepest search, 250 plies: endless play may decide it;',
    );
    expect(endless.stdout).toMatch(/^0\s+6\s+loss$/m);
  });

  it('reports a finished game', async () => {
    const { code, stdout } = await runAyoayo(['solve', '1,0,0,0,1,0/0,0,0,0,0,0/23-23/0']);
    expect(code).toBe(0);
    expect(stdout).toContain('Game over: player 1 wins 23-25');
  });
});
