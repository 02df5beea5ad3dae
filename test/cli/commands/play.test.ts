import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import {
  applyAction,
  initialPosition,
  legalActions,
  outcome,
  type Position,
  renderBoard,
} from '../../../env/index.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));

/** Runs `ayoayo play` as a user would, with `input` piped to stdin. */
function play(input: string, ...args: string[]) {
  const run = spawnSync(process.execPath, ['bin/ayoayo.js', 'play', ...args], {
    cwd: root,
    input,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Lines that try every action in turn: each prompt takes the first legal one. */
const everyAction = Array.from({ length: 200 }, () => '0\n1\n2\n3\n4\n5\n').join('');

/** Replays the transcript's moves ("Your move ...: A" echoes and "X plays A") from the start. */
function replay(stdout: string): Position {
  let pos = initialPosition();
  for (const line of stdout.split('\n')) {
    // Accepted input is echoed alone after its prompt; a refusal follows the prompt in words.
    const mine = /^Your move \([\d, ]+\): (\d)$/.exec(line);
    const theirs = /^\S+ plays (\d) \(pit \d+\)/.exec(line);
    const action = mine?.[1] ?? theirs?.[1];
    if (action !== undefined) pos = applyAction(pos, Number(action));
  }
  return pos;
}

describe('ayoayo play', () => {
  it('plays a whole game from piped input: board, agent moves with their relay, the result', () => {
    const { status, stdout, stderr } = play(everyAction, '--against', 'greedy', '--seed', '3');
    expect(stderr).toBe('');
    expect(status).toBe(0);
    expect(stdout).toContain('You are player 0 (south, bottom row); greedy is player 1.');
    expect(stdout).toContain(renderBoard(initialPosition()));
    expect(stdout).toMatch(
      /greedy plays \d \(pit (6|7|8|9|10|11)\):\n {2}lap 1: lifts \d+ from pit \d+, last seed in pit \d+/,
    );
    expect(stdout).toMatch(/(captures \d+ seeds from pit \d+|no capture)/);
    expect(stdout).toMatch(
      /Game over: (player [01] wins \d+-\d+|draw 24-24)\. (You win!|greedy wins\.|A draw\.)/,
    );
    // The transcript is a legal game that ended where it says.
    const final = replay(stdout);
    expect(outcome(final)).not.toBeNull();
    expect(stdout.trimEnd().split('\n').slice(-8, -1).join('\n')).toBe(
      renderBoard(final, { over: true }),
    );
    expect(stdout).not.toMatch(/to move\.\nGame over/);
    // Everything fits an 80-column terminal.
    for (const line of stdout.split('\n')) expect(line.length).toBeLessThanOrEqual(80);
    // The human's moves are reported as the agent's are, captures included.
    expect(stdout).toMatch(
      /Your move \([\d, ]+\): \d\nYou play \d \(pit [0-5]\):\n {2}lap 1: lifts \d+ from pit [0-5],/,
    );
    const mine = [...stdout.matchAll(/You play \d \(pit \d+\):\n((?: {2}lap .*\n)+)( {2}.*)/g)];
    expect(mine.length).toBeGreaterThan(3);
    expect(mine.some((m) => /^ {2}captures \d+ seeds from pit \d+/.test(m[2] ?? ''))).toBe(true);
  });

  it('re-prompts on malformed and illegal input with the legal actions', () => {
    const { status, stdout } = play(`hello\n9\n-1\n\n${everyAction}`, '--against', 'random');
    expect(status).toBe(0);
    expect(stdout).toContain("'hello' is not an action: type one of 0, 1, 2, 3, 4, 5.");
    expect(stdout).toContain("'9' is not an action: type one of 0, 1, 2, 3, 4, 5.");
    expect(stdout).toContain("'-1' is not an action");
    expect(stdout).toContain("'' is not an action");
    // Later, a pit that is empty is refused with its reason.
    expect(stdout).toMatch(/\d is not legal here \(empty pit\): legal actions are [\d, ]+\./);
  });

  it('lets the agent move first from seat 1, and follows the rule options', () => {
    const { status, stdout } = play(
      everyAction,
      '--against',
      'minimax:2',
      '--seat',
      '1',
      '--rules',
      'captureSeedStays=true',
    );
    expect(status).toBe(0);
    expect(stdout).toContain(
      'You are player 1 (north); minimax:2 is player 0.\nThe board is turned round so that your row is at the bottom.',
    );
    // North's row is drawn at the bottom, its actions 0..5 left to right as the player sees them.
    expect(stdout).toContain(renderBoard(initialPosition(), { bottom: 1 }));
    expect(stdout).toMatch(/^ {10}0 {5}1 {5}2 {5}3 {5}4 {5}5 {5}player 1's actions$/m);
    expect(stdout).not.toMatch(/5 {5}4 {5}3 {5}2 {5}1 {5}0 {5}player 1's actions/);
    expect(stdout).toMatch(/You play \d \(pit (6|7|8|9|10|11)\):/);
    expect(stdout).toContain('Rules: captureSeedStays=true,leftoverTo=opponent.');
    expect(stdout).toMatch(/minimax:2 plays \d \(pit [0-5]\) \(searched 2 plies, \d+ nodes\):/);
    const firstPrompt = stdout.indexOf('Your move');
    expect(stdout.indexOf('minimax:2 plays')).toBeLessThan(firstPrompt);
  });

  it('ends cleanly when the player quits, and with a one-line error when input runs out', () => {
    const quit = play('q\n', '--against', 'random');
    expect(quit.status).toBe(0);
    expect(quit.stdout).toContain('Game abandoned.');
    const eof = play('0\n', '--against', 'random');
    expect(eof.status).toBe(1);
    expect(eof.stderr).toBe('ayoayo: input ended before the game did\n');
  });

  it('rejects a bad agent or seat with one line', () => {
    const agent = play('', '--against', 'grandmaster');
    expect(agent.status).toBe(1);
    expect(agent.stderr).toMatch(
      /^ayoayo: invalid agent 'grandmaster': unknown agent 'grandmaster'; valid agents: random, greedy, /,
    );
    const seat = play('', '--against', 'random', '--seat', '2');
    expect(seat.status).toBe(1);
    expect(seat.stderr).toMatch(/^ayoayo: --seat must be 0 or 1, got 2/);
    expect(legalActions(initialPosition())).toHaveLength(6);
  });
});
