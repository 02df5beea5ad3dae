// Old against new in one run: the engine's two playout loops and the vector
// environment with lookahead, for this working tree and for an earlier commit,
// plus bench/c/playouts.c when a C compiler exists. Each round measures old,
// new (and C) one after the other, each in a process of its own as `npm run
// bench` runs them. Rates are per second of CPU time (the machine may be
// shared); each figure is the median of the rounds, each ratio the median of
// the rounds' ratios.
//
//   npx tsx bench/against.ts [REF] [--rounds N] [--seconds S]
//
// REF defaults to where this branch left main (git merge-base HEAD main).
//
// REF's env/ and agents/ are exported with `git archive` into a temporary folder
// beside node_modules (no worktree); each side runs its own engine through the
// same loops (bench/against-side.ts), and its own agents/playout.ts for the
// rejection-sampling loop.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import type { Measured, Rate } from './against-side.ts';
import { compileNativePlayouts } from './native-playouts.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: { rounds: { type: 'string', default: '5' }, seconds: { type: 'string', default: '1' } },
});
const here = fileURLToPath(new URL('..', import.meta.url));
const ref =
  positionals[0] ??
  execFileSync('git', ['merge-base', 'HEAD', 'main'], { cwd: here, encoding: 'utf8' }).trim();
const rounds = Number(values.rounds);
const seconds = Number(values.seconds);

const median = (xs: readonly number[]): number => {
  const sorted = [...xs].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] as number;
};

const oldRoot = mkdtempSync(join(tmpdir(), 'ayoayo-against-'));
const native = compileNativePlayouts();
const tsx = join(here, 'node_modules', '.bin', 'tsx');
const side = (root: string, what: Measured): Rate =>
  JSON.parse(
    execFileSync(tsx, [join(here, 'bench', 'against-side.ts'), root, what, String(seconds)], {
      cwd: here,
      encoding: 'utf8',
    }),
  ) as Rate;
try {
  const commit = execFileSync('git', ['rev-parse', '--short', ref], {
    cwd: here,
    encoding: 'utf8',
  });
  execFileSync('sh', ['-c', `git archive ${ref} env agents | tar -x -C ${oldRoot}`], { cwd: here });
  symlinkSync(join(here, 'node_modules'), join(oldRoot, 'node_modules'));
  execFileSync('cp', [join(here, 'package.json'), oldRoot]);
  const sides = [
    { name: `old ${commit.trim()}`, root: oldRoot },
    { name: 'new', root: here },
  ];
  if (typeof native === 'string') process.stderr.write(`against: ${native}; no C figures\n`);
  for (const what of ['reject', 'expand', 'vectorEnv'] as const) {
    const runs: Record<string, Rate[]> = {};
    const record = (name: string, rate: Rate): void => {
      const list = runs[name] ?? [];
      list.push(rate);
      runs[name] = list;
    };
    for (let round = 0; round < rounds; round++) {
      for (const { name, root } of sides) record(name, side(root, what));
      if (what !== 'vectorEnv' && typeof native !== 'string') {
        const t = native.time(what, seconds);
        const cpuSec = t.cpuMs / 1000;
        record('C', { perSec: t.games / cpuSec, pliesPerSec: t.plies / cpuSec });
      }
    }
    const row: Record<string, unknown> = { measurement: what, rounds, seconds };
    for (const [name, rates] of Object.entries(runs)) {
      row[name] = {
        perSec: Math.round(median(rates.map((r) => r.perSec))),
        ...(what === 'vectorEnv'
          ? {}
          : { pliesPerSec: Math.round(median(rates.map((r) => r.pliesPerSec))) }),
      };
    }
    const ratio = (a: string, b: string): number | undefined => {
      const x = runs[a];
      const y = runs[b];
      if (x === undefined || y === undefined) return undefined;
      return Number(median(x.map((r, i) => r.perSec / (y[i] as Rate).perSec)).toFixed(3));
    };
    const old = sides[0]?.name as string;
    row.newOverOld = ratio('new', old);
    if (runs.C !== undefined) {
      row.newOverC = ratio('new', 'C');
      row.oldOverC = ratio(old, 'C');
    }
    console.log(JSON.stringify(row));
  }
} finally {
  rmSync(oldRoot, { recursive: true, force: true });
  if (typeof native !== 'string') native.dispose();
}
