// Old against new in one run: the engine's two playout loops and the vector
// environment with lookahead (by default), or a preset's self-play and az's
// simulations (--measure), for this working tree and for one or more earlier
// commits, plus bench/c/playouts.c for the playout loops when a C compiler
// exists. Each round measures every side one after the other, each in a
// process of its own as `npm run bench` runs them. Engine rates are per
// second of CPU time (the machine may be shared); self-play and search rates
// per second of wall time (self-play also per CPU second); each figure is the
// median of the rounds, each ratio the median of the rounds' ratios.
//
//   npx tsx bench/against.ts [REF...] [--rounds N] [--seconds S] [--measure A,B,...]
//       [--old-settings JSON]
//
// REF defaults to where this branch left main (git merge-base HEAD main).
// --measure: reject, expand, vectorEnv (the default), quick, long, quick-ppo,
// long-ppo (bench/train.bench.ts, with the seconds an iteration), az
// (az:models/pretrained,t=50ms). --old-settings: settings over the preset for
// the earlier commits' sides, to weigh a preset against the one it replaced
// (issue 46's 2-core cost: `npx tsx bench/against.ts 0542302 --measure quick
// --old-settings '{"expertIteration":{"selfPlayShards":2},"updateSlices":null}'`).
//
// Each REF's sources are exported with `git archive` into a temporary folder
// beside node_modules (no worktree); each side runs its own code through the
// same measurement (bench/against-side.ts), from its own folder.
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { MEASURED, type Measured, type Rate } from './against-side.ts';
import { median } from './median.ts';
import { compileNativePlayouts } from './native-playouts.ts';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    rounds: { type: 'string', default: '5' },
    seconds: { type: 'string', default: '1' },
    measure: { type: 'string', default: 'reject,expand,vectorEnv' },
    'old-settings': { type: 'string', default: '{}' },
  },
});
const here = fileURLToPath(new URL('..', import.meta.url));
const refs =
  positionals.length > 0
    ? positionals
    : [execFileSync('git', ['merge-base', 'HEAD', 'main'], { cwd: here, encoding: 'utf8' }).trim()];
const rounds = Number(values.rounds);
const seconds = Number(values.seconds);
const measured = values.measure.split(',') as Measured[];
for (const what of measured)
  if (!MEASURED.includes(what))
    throw new Error(`against: --measure takes ${MEASURED.join(', ')}, not ${what}`);

const oldRoots: string[] = [];
const engineLoops = measured.some((what) => what === 'reject' || what === 'expand');
const native = engineLoops ? compileNativePlayouts() : 'no playout loop measured';
const tsx = join(here, 'node_modules', '.bin', 'tsx');
const side = (root: string, what: Measured, settings: string): Rate =>
  JSON.parse(
    execFileSync(
      tsx,
      [join(here, 'bench', 'against-side.ts'), root, what, String(seconds), settings],
      { cwd: root, encoding: 'utf8' },
    ),
  ) as Rate;
try {
  const sides: { name: string; root: string }[] = [];
  for (const ref of refs) {
    const commit = execFileSync('git', ['rev-parse', '--short', ref], {
      cwd: here,
      encoding: 'utf8',
    }).trim();
    const root = mkdtempSync(join(tmpdir(), 'ayoayo-against-'));
    oldRoots.push(root);
    execFileSync(
      'sh',
      ['-c', `git archive ${ref} | tar -x -C ${root} --exclude=test --exclude=docs`],
      {
        cwd: here,
      },
    );
    symlinkSync(join(here, 'node_modules'), join(root, 'node_modules'));
    sides.push({ name: `old ${commit}`, root });
  }
  sides.push({ name: 'new', root: here });
  if (engineLoops && typeof native === 'string')
    process.stderr.write(`against: ${native}; no C figures\n`);
  for (const what of measured) {
    const runs: Record<string, Rate[]> = {};
    const record = (name: string, rate: Rate): void => {
      const list = runs[name] ?? [];
      list.push(rate);
      runs[name] = list;
    };
    for (let round = 0; round < rounds; round++) {
      for (const { name, root } of sides) {
        record(name, side(root, what, root === here ? '{}' : values['old-settings']));
      }
      if ((what === 'reject' || what === 'expand') && typeof native !== 'string') {
        const t = native.time(what, seconds);
        const cpuSec = t.cpuMs / 1000;
        record('C', { perSec: t.games / cpuSec, pliesPerSec: t.plies / cpuSec });
      }
    }
    const row: Record<string, unknown> = { measurement: what, rounds, seconds };
    const medianOf = (
      rates: Rate[],
      key: 'perSec' | 'pliesPerSec' | 'cpuPerSec' | 'updatePerSec' | 'iterationSeconds',
    ) => {
      const xs = rates.map((r) => r[key]).filter((x): x is number => x !== undefined);
      if (xs.length === 0) return {};
      const m = median(xs);
      return { [key]: key === 'iterationSeconds' ? Number(m.toFixed(3)) : Math.round(m) };
    };
    for (const [name, rates] of Object.entries(runs)) {
      const inference = rates[0]?.inference;
      const gradients = rates[0]?.gradients;
      row[name] = {
        ...medianOf(rates, 'perSec'),
        ...(what === 'vectorEnv' || what === 'az' ? {} : medianOf(rates, 'pliesPerSec')),
        ...medianOf(rates, 'cpuPerSec'),
        ...(inference === undefined ? {} : { inference }),
        ...medianOf(rates, 'updatePerSec'),
        ...(gradients === undefined ? {} : { gradients }),
        ...medianOf(rates, 'iterationSeconds'),
      };
    }
    const ratio = (
      a: string,
      b: string,
      key: 'perSec' | 'cpuPerSec' | 'updatePerSec' | 'iterationSeconds' = 'perSec',
    ) => {
      const x = runs[a];
      const y = runs[b];
      if (x === undefined || y === undefined) return undefined;
      const each = x.map((r, i) => (r[key] ?? Number.NaN) / ((y[i] as Rate)[key] ?? Number.NaN));
      return Number.isNaN(each[0]) ? undefined : Number(median(each).toFixed(3));
    };
    for (const { name } of sides.slice(0, -1)) {
      row[`newOver(${name})`] = ratio('new', name);
      const cpu = ratio('new', name, 'cpuPerSec');
      if (cpu !== undefined) row[`newOver(${name}),cpu`] = cpu;
      const update = ratio('new', name, 'updatePerSec');
      if (update !== undefined) row[`newOver(${name}),update`] = update;
      // Seconds, not a rate: above 1 the new side's iteration takes longer.
      const iteration = ratio('new', name, 'iterationSeconds');
      if (iteration !== undefined) row[`newOver(${name}),iterationSeconds`] = iteration;
    }
    if (runs.C !== undefined) {
      row.newOverC = ratio('new', 'C');
      for (const { name } of sides.slice(0, -1)) row[`(${name})OverC`] = ratio(name, 'C');
    }
    console.log(JSON.stringify(row));
  }
} finally {
  for (const root of oldRoots) rmSync(root, { recursive: true, force: true });
  if (typeof native !== 'string') native.dispose();
}
