import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { initialPosition, legalActions } from '../../../env/index.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));

function engine(input: string, ...args: string[]) {
  const run = spawnSync(process.execPath, ['bin/ayoayo.js', 'engine', ...args], {
    cwd: root,
    input,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

const start = JSON.stringify({ pits: Array(12).fill(4), stores: [0, 0], toMove: 0 });

describe('ayoayo engine', () => {
  it('answers one line per request on stdout and exits cleanly at end of input', () => {
    const { status, stdout, stderr } = engine(
      `${start}\nnot json\n${start}\n`,
      '--agent',
      'minimax:6',
    );
    expect(stderr).toBe('');
    expect(status).toBe(0);
    const lines = stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines).toHaveLength(3);
    expect(legalActions(initialPosition())).toContain(lines[0].action);
    expect(lines[1].error).toMatch(/not JSON/);
    expect(lines[2].action).toBe(lines[0].action); // minimax:6 has one best move from the start
  });

  it('exits at once on empty input', () => {
    const { status, stdout } = engine('', '--agent', 'random');
    expect(status).toBe(0);
    expect(stdout).toBe('');
  });

  it('rejects an unknown agent with one line', () => {
    const { status, stderr } = engine('', '--agent', 'stockfish');
    expect(status).toBe(1);
    expect(stderr).toMatch(
      /^ayoayo: invalid agent 'stockfish': unknown agent 'stockfish'; valid agents: /,
    );
    expect(stderr.trim().split('\n')).toHaveLength(1);
  });
});
