import { spawn, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, describe, expect, it } from 'vitest';
import { describeWithSystemPackage, PYTHON3 } from '../../system-packages.ts';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const scratch = mkdtempSync(join(tmpdir(), 'ayoayo-eval-cli-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function ayoayo(...args: string[]) {
  const run = spawnSync(process.execPath, ['bin/ayoayo.js', 'eval', ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 120_000,
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

describe('ayoayo eval', () => {
  it('refuses an --out it cannot write to before playing, in one line', () => {
    const file = join(scratch, 'a-file');
    writeFileSync(file, 'not a folder');
    for (const out of [join(file, 'x'), file]) {
      const { status, stdout, stderr } = ayoayo(
        '--agents',
        'random,greedy',
        '--games',
        '2',
        '--out',
        out,
      );
      expect(status).not.toBe(0);
      expect(stdout).toBe('');
      expect(stderr.trim().split('\n')).toEqual([
        `ayoayo: --out ${out}: cannot write the results there: it or a folder above it is a file`,
      ]);
    }
    const empty = ayoayo('--agents', 'random,greedy', '--games', '2', '--out', '');
    expect(empty.stderr.trim()).toBe(
      "ayoayo: --out needs a folder, got an empty string (run 'ayoayo --help' for usage)",
    );
  });

  it('plays a round robin on the worker pool, prints the table and writes the files', () => {
    const out = join(scratch, 'rr');
    const { status, stdout, stderr } = ayoayo(
      '--agents',
      'random,greedy',
      '--agents',
      'minimax:2',
      '--games',
      '6',
      '--seed',
      '3',
      '--out',
      out,
    );
    expect(status).toBe(0);
    expect(stdout).toMatch(/^pairing\s+games\s+won\s+drawn\s+lost\s+score\s+95% CI\n/);
    for (const pairing of ['random vs greedy', 'random vs minimax:2', 'greedy vs minimax:2']) {
      expect(stdout).toMatch(new RegExp(`${pairing}\\s+6\\s+\\d\\s+\\d\\s+\\d\\s+\\d+\\.\\d%`));
    }
    expect(stdout).toMatch(/\nrandom\s+0\s+12\s/);
    // No progress bar when stderr is not a terminal; only the list of files written.
    const files = ['games.csv', 'summary.csv', 'ratings.csv', 'results.json'];
    const charts = ['ratings.svg', 'ratings.png', 'scores.svg', 'scores.png'];
    expect(stderr).toBe(`wrote ${[...files, ...charts].map((f) => join(out, f)).join(', ')}\n`);
    expect(readdirSync(out).sort()).toEqual([...files, ...charts].sort());
    // The charts name every agent; the PNGs are PNGs.
    for (const chart of ['ratings.svg', 'scores.svg']) {
      const svg = readFileSync(join(out, chart), 'utf8');
      for (const agent of ['random', 'greedy', 'minimax:2']) expect(svg).toContain(agent);
    }
    expect(readFileSync(join(out, 'scores.png')).subarray(1, 4).toString()).toBe('PNG');
    expect(readFileSync(join(out, 'games.csv'), 'utf8').trim().split('\n')).toHaveLength(19);
  });

  it("reviews the games with --review: each agent's value-losing moves in a table, their plies in games.csv", () => {
    const out = join(scratch, 'reviewed');
    const run = spawnSync(
      process.execPath,
      [
        'bin/ayoayo.js',
        'eval',
        '--agents',
        'greedy,minimax:2',
        '--games',
        '2',
        '--seed',
        '12',
        '--workers',
        '0',
        '--review',
        '--review-endgame',
        '12',
        '--out',
        out,
      ],
      {
        cwd: root,
        encoding: 'utf8',
        timeout: 120_000,
        env: { ...process.env, XDG_CACHE_HOME: join(scratch, 'review-cache') },
      },
    );
    expect(run.status).toBe(0);
    expect(run.stdout).toMatch(/\nagent\s+moves\s+value-losing\s+share\s+undecided\n/);
    expect(run.stdout).toMatch(/\ngreedy\s+\d+\s+\d+\s+\d+\.\d%\s+0\n/);
    const [header, ...rows] = readFileSync(join(out, 'games.csv'), 'utf8').trim().split('\n');
    expect(header).toMatch(/,value_losing_plies0,value_losing_plies1,undecided_plies$/);
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row).toMatch(/,[\d ]*,[\d ]*,$/);
  });

  it('prints JSON with --json, the same games as in the main thread', () => {
    const pooled = ayoayo('--agents', 'random,greedy', '--games', '4', '--json', '--workers', '2');
    const here = ayoayo('--agents', 'random,greedy', '--games', '4', '--json', '--workers', '0');
    expect(pooled.status).toBe(0);
    const strip = (text: string) =>
      JSON.parse(text).games.map(({ seconds: _, ...g }: { seconds: number }) => g);
    expect(strip(pooled.stdout)).toEqual(strip(here.stdout));
    expect(
      JSON.parse(here.stdout)
        .ratings.map((r: { agent: string }) => r.agent)
        .sort(),
    ).toEqual(['greedy', 'random']);
  });

  describeWithSystemPackage(PYTHON3, "the README's example engine in Python", () => {
    it("runs the README's example engine in the main thread and always keeps the results", async () => {
      // Before the fix, about 4 runs in 10 exited with code 13, printing and writing nothing.
      const engine = join(root, 'test/fixtures/ext-engines/engine.py');
      const runs = await Promise.all(
        [1, 2, 3].map((seed) => {
          const out = join(scratch, `readme-engine-${seed}`);
          const args = [
            'bin/ayoayo.js',
            'eval',
            '--agents',
            `ext:python3 ${engine},random`,
            '--games',
            '2',
            '--workers',
            '0',
            '--seed',
            String(seed),
            '--out',
            out,
          ];
          return new Promise<{ code: number | null; stdout: string; out: string }>((resolve) => {
            const child = spawn(process.execPath, args, { cwd: root });
            let stdout = '';
            child.stdout.on('data', (chunk: Buffer) => {
              stdout += chunk.toString();
            });
            child.once('close', (code) => resolve({ code, stdout, out }));
          });
        }),
      );
      for (const run of runs) {
        expect(run.code).toBe(0);
        expect(run.stdout).toMatch(/ext:python3 \S+ vs random\s+2\s/);
        expect(readdirSync(run.out)).toContain('results.json');
      }
    }, 120_000);
  });

  it('caps --workers at the core count, saying so, instead of hanging', () => {
    const cores = availableParallelism();
    const run = ayoayo('--agents', 'random,greedy', '--games', '2', '--json', '--workers', '1000');
    expect(run.stderr).toBe(
      `ayoayo: --workers 1000 is more than the ${cores} cores here; using ${cores}\n`,
    );
    expect(run.status).toBe(0);
    expect(JSON.parse(run.stdout).settings.workers).toBe(cores);
  });

  it('reports bad agents and options in one line', () => {
    const bad = ayoayo('--agents', 'random,minimax:x', '--games', '2');
    expect(bad.status).toBe(1);
    expect(bad.stderr).toMatch(/^ayoayo: invalid agent 'minimax:x': the depth must be/);
    const games = ayoayo('--agents', 'random,greedy', '--games', '2.5');
    expect(games.status).toBe(1);
    expect(games.stderr).toMatch(/^ayoayo: --games must be a positive integer, got 2.5/);
  });
});

describe('a list of agents on the command line', () => {
  it('reports the mistyped agent by its own name', () => {
    const run = ayoayo('--agents', 'random,greedy,foo', '--games', '2');
    expect(run.status).toBe(1);
    expect(run.stderr).toMatch(/^ayoayo: (unknown|invalid) agent 'foo'/);
  });
});
