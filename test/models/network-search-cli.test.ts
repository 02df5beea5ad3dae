import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { applyAction, initialPosition, outcome, type Position } from '../../env/index.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'ayoayo-network-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const AZ = 'az:models/pretrained,sims=24';

function ayoayo(input: string, ...args: string[]) {
  const run = spawnSync(process.execPath, ['bin/ayoayo.js', ...args], {
    cwd: root,
    input,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** The network search agents through the commands a user runs, end to end. */
describe('network search agents on the command line', () => {
  it('eval: az and minimax with eval= play a tournament on the worker pool', () => {
    const out = join(scratch, 'eval');
    const minimax = 'minimax:2,eval=models/pretrained';
    const { status, stdout, stderr } = ayoayo(
      '',
      'eval',
      '--agents',
      `${AZ},${minimax}`,
      '--vs',
      'random',
      '--games',
      '2',
      '--seed',
      '4',
      '--workers',
      '2',
      '--out',
      out,
    );
    expect(stderr).toContain('wrote ');
    expect(status).toBe(0);
    for (const agent of [AZ, minimax]) {
      expect(stdout).toMatch(new RegExp(`random vs ${agent}\\s+2\\s`));
    }
    const games = readFileSync(join(out, 'games.csv'), 'utf8').trim().split('\n');
    expect(games).toHaveLength(1 + 4);
  });

  it('play: a whole game against az from piped input', () => {
    const everyAction = Array.from({ length: 200 }, () => '0\n1\n2\n3\n4\n5\n').join('');
    const { status, stdout, stderr } = ayoayo(everyAction, 'play', '--against', AZ, '--seed', '2');
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(stdout).toContain(`You are player 0 (south, bottom row); ${AZ} is player 1.`);
    let pos: Position = initialPosition();
    for (const line of stdout.split('\n')) {
      const mine = /^Your move \([\d, ]+\): (\d)$/.exec(line);
      const theirs = /^\S+ plays (\d) \(pit \d+\)/.exec(line);
      const action = mine?.[1] ?? theirs?.[1];
      if (action !== undefined) pos = applyAction(pos, Number(action));
    }
    expect(outcome(pos)).not.toBeNull();
    expect(stdout).toMatch(/Game over: /);
  });

  it('engine: az answers protocol requests, the same move for the same seed', () => {
    const start = JSON.stringify({ pits: Array(12).fill(4), stores: [0, 0], toMove: 0 });
    const midgame = JSON.stringify({
      pits: [0, 5, 5, 5, 5, 4, 4, 4, 4, 4, 4, 4],
      stores: [0, 0],
      toMove: 1,
    });
    const run = () => ayoayo(`${start}\n${midgame}\n`, 'engine', '--agent', AZ, '--seed', '7');
    const first = run();
    expect(first.stderr).toBe('');
    expect(first.status).toBe(0);
    const answers = first.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { action: number });
    expect(answers).toHaveLength(2);
    for (const answer of answers) expect([0, 1, 2, 3, 4, 5]).toContain(answer.action);
    expect(run().stdout).toBe(first.stdout);
  });

  it('engine: a bad az option is one line naming it', () => {
    const { status, stderr } = ayoayo('', 'engine', '--agent', 'az:models/pretrained,sims=0');
    expect(status).toBe(1);
    expect(stderr).toMatch(
      /^ayoayo: invalid agent 'az:models\/pretrained,sims=0': .*sims must be an integer in 1\.\.10000000/,
    );
    expect(stderr.trim().split('\n')).toHaveLength(1);
  });
});
