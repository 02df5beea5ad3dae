import { spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { ACCURACY_SETS } from '../../../eval/accuracy/shipped-sets.ts';
import { plantedLine, setText, smallPositionLines } from '../../eval/accuracy/set-texts.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'ayoayo-accuracy-cli-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function runAyoayo(args: readonly string[]): {
  code: number | null;
  stdout: string;
  stderr: string;
} {
  const run = spawnSync(process.execPath, ['bin/ayoayo.js', 'accuracy', ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** A set file of the main set's first `count` positions (the header's count and checksum made again). */
function smallSet(count: number): string {
  const [header, ...lines] = readFileSync(ACCURACY_SETS.main as string, 'utf8')
    .trimEnd()
    .split('\n');
  const kept = lines.slice(0, count);
  const parsed = JSON.parse(header as string) as Record<string, unknown>;
  parsed.positions = count;
  parsed.sha256 = createHash('sha256').update(kept.join('\n')).digest('hex');
  const path = join(dir, `small-${count}.jsonl`);
  writeFileSync(path, `${[JSON.stringify(parsed), ...kept].join('\n')}\n`);
  return path;
}

describe('ayoayo accuracy', () => {
  it('prints a row per agent, and writes CSV, JSON and the chart with --out', () => {
    const out = join(dir, 'out');
    const { code, stdout, stderr } = runAyoayo([
      '--agents',
      'random,greedy',
      '--set',
      smallSet(30),
      '--workers',
      '0',
      '--out',
      out,
      '--quiet',
    ]);
    expect(code, stderr).toBe(0);
    expect(stdout).toMatch(/^agent\s+errors\s+95% CI\s+ply 4-5/);
    expect(stdout).toMatch(/\nrandom\s+\d+\.\d%/);
    expect(stdout).toMatch(/\ngreedy\s+\d+\.\d%/);
    const csv = readFileSync(join(out, 'accuracy.csv'), 'utf8').trim().split('\n');
    // A row per agent and phase, all phases first.
    expect(csv).toHaveLength(1 + 2 * 6);
    expect(csv.filter((line) => /^(random|greedy),all,30,/.test(line))).toHaveLength(2);
    expect(readFileSync(join(out, 'accuracy.png')).subarray(1, 4).toString()).toBe('PNG');
  });

  it('refuses an --out it cannot write to before scoring a position, in one line', () => {
    const file = join(dir, 'a-file');
    writeFileSync(file, 'not a folder');
    const { code, stdout, stderr } = runAyoayo(['--agents', 'greedy', '--out', join(file, 'x')]);
    expect(code).not.toBe(0);
    expect(stdout).toBe('');
    expect(stderr.trim().split('\n')).toEqual([
      `ayoayo: --out ${join(file, 'x')}: cannot write the results there: it or a folder above it is a file`,
    ]);
  });

  it('refuses an unknown set in one line that names it and the choices', () => {
    const { code, stdout, stderr } = runAyoayo(['--agents', 'random', '--set', 'nosuchset']);
    expect(code).not.toBe(0);
    expect(stdout).toBe('');
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/unknown accuracy set 'nosuchset': give main, holdout or a set file/);
  });

  it('refuses a bad agent spec in one line that names it', () => {
    const { code, stdout, stderr } = runAyoayo([
      '--agents',
      'minimax:banana',
      '--set',
      smallSet(5),
    ]);
    expect(code).not.toBe(0);
    expect(stdout).toBe('');
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/minimax:banana/);
  });

  it('refuses a set file whose positions were edited, in one line', () => {
    const path = smallSet(5);
    writeFileSync(path, readFileSync(path, 'utf8').replace('"win"', '"draw"'));
    const { code, stderr } = runAyoayo(['--agents', 'random', '--set', path]);
    expect(code).not.toBe(0);
    expect(stderr.trim().split('\n')).toHaveLength(1);
    expect(stderr).toMatch(/does not match its checksum/);
  });
});

describe('ayoayo accuracy --verify', () => {
  const honest = smallPositionLines(6);
  const file = (name: string, lines: readonly string[]): string => {
    const path = join(dir, name);
    writeFileSync(path, setText(lines));
    return path;
  };

  it('names the first line of a set whose values were planted (its checksum made again), before scoring', () => {
    const path = file(
      'planted.jsonl',
      honest.map((line, i) => (i === 1 || i === 4 ? plantedLine(line) : line)),
    );
    const position = (JSON.parse(honest[1] as string) as { position: string }).position;
    const { code, stdout, stderr } = runAyoayo([
      '--agents',
      'random',
      '--set',
      path,
      '--verify',
      '--workers',
      '0',
    ]);
    expect(code).toBe(1);
    expect(stdout).toBe('');
    const lines = stderr.trim().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(
      `ayoayo: accuracy set ${path}, line 3: the solver disagrees with the values of ${position}: the set has value `,
    );
  });

  it('only verifies without --agents, and says so on stdout', () => {
    const path = file('honest.jsonl', honest);
    const { code, stdout, stderr } = runAyoayo(['--set', path, '--verify', '--quiet']);
    expect(code, stderr).toBe(0);
    expect(stderr).toBe('');
    expect(stdout).toBe(`verified ${path}: the solver agrees with the values of all 6 positions\n`);
  });

  it('verifies a seeded sample of N positions, then scores the agents', () => {
    const path = file('sampled.jsonl', honest);
    const { code, stdout, stderr } = runAyoayo([
      '--agents',
      'greedy',
      '--set',
      path,
      '--verify',
      '4',
      '--workers',
      '0',
      '--quiet',
    ]);
    expect(code, stderr).toBe(0);
    expect(stderr).toBe(
      `verified ${path}: the solver agrees with the values of the 4 positions of a sample of 6 (--seed 1)\n`,
    );
    expect(stdout).toMatch(/\ngreedy\s+\d+\.\d%/);
  });

  it('asks for --agents unless the set is only verified, and for a count after --verify', () => {
    const none = runAyoayo(['--set', smallSet(5)]);
    expect(none.code).toBe(1);
    expect(none.stderr.trim().split('\n')).toEqual([
      "ayoayo: --agents is required: name the agents to measure, or give --verify alone to check the set's values (run 'ayoayo --help' for usage)",
    ]);
    const bad = runAyoayo(['--set', smallSet(5), '--verify', 'some']);
    expect(bad.code).toBe(1);
    expect(bad.stderr.trim().split('\n')).toEqual([
      "ayoayo: --verify takes the number of positions to re-solve (nothing: all of them), got 'some' (run 'ayoayo --help' for usage)",
    ]);
  });
});
