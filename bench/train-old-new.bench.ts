import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { median } from './median.ts';
import type { Emit } from './types.ts';

/**
 * An iteration of `npm start` with this checkout's code and preset against
 * another checkout's code and settings (BENCH_OLD_TREE, a folder with the
 * project and its node_modules; BENCH_OLD_LAYER, settings as JSON over its
 * `quick` preset, by default the preset of before issue 46: 2 self-play shards
 * and one two-thread gradient session), on 2 workers, in separate processes
 * taking turns (BENCH_PAIRS pairs of BENCH_ITERATIONS iterations each after
 * two), so that the machine's drift weighs on both: each pair's seconds an
 * iteration and their ratio, then the median ratio.
 *
 *   git worktree add ../old 0542302 && ln -s "$PWD/node_modules" ../old/
 *   BENCH_OLD_TREE=../old npm run bench -- train-old-new
 */
const PAIRS = Number(process.env.BENCH_PAIRS ?? 5);
const ITERATIONS = process.env.BENCH_ITERATIONS ?? '16';
const WORKERS = process.env.BENCH_WORKERS ?? '2';
const OLD_LAYER =
  process.env.BENCH_OLD_LAYER ?? '{"expertIteration":{"selfPlayShards":2},"updateSlices":null}';

interface Seconds {
  readonly iterationSeconds: number;
  readonly updateSeconds: number;
  readonly network: string;
}

function iterationSeconds(tree: string, layer?: string): Seconds {
  const script = fileURLToPath(new URL('./iteration-seconds.ts', import.meta.url));
  const args = ['tsx', script, tree, 'quick', WORKERS, ITERATIONS, ...(layer ? [layer] : [])];
  const run = spawnSync('npx', args, { encoding: 'utf8' });
  if (run.status !== 0) throw new Error(`${args.join(' ')} failed: ${run.stderr}`);
  const last = run.stdout.trim().split('\n').at(-1) ?? '';
  return JSON.parse(last) as Seconds;
}

export async function run(emit: Emit): Promise<void> {
  const oldTree = process.env.BENCH_OLD_TREE;
  if (oldTree === undefined) {
    emit({
      name: 'skipped',
      reason: 'set BENCH_OLD_TREE to a checkout of the code to compare with',
    });
    return;
  }
  const here = fileURLToPath(new URL('..', import.meta.url));
  const ratios: number[] = [];
  for (let pair = 1; pair <= PAIRS; pair++) {
    const old = iterationSeconds(oldTree, OLD_LAYER);
    const now = iterationSeconds(here);
    const ratio = now.iterationSeconds / old.iterationSeconds;
    ratios.push(ratio);
    emit({ name: 'pair', pair, old, new: now, ratio: Number(ratio.toFixed(3)) });
  }
  emit({ name: 'median', pairs: PAIRS, newOverOld: Number(median(ratios).toFixed(3)) });
}
