import { existsSync, readdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import type { runPaths } from './paths.ts';

type RunPaths = ReturnType<typeof runPaths>;

const ITER_FILE = /^iter-(\d+)\.json$/;

/** The `iter-NNNNNN.json` files of a folder as iteration numbers, oldest first. */
function iterationsIn(dir: string): number[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir)
    .flatMap((name) => {
      const match = ITER_FILE.exec(name);
      return match ? [Number(match[1])] : [];
    })
    .sort((a, b) => a - b);
}

const fileOf = (iteration: number): string => `iter-${String(iteration).padStart(6, '0')}.json`;

/** What a run folder keeps and what it may delete. */
export interface RetentionPlan {
  readonly keptCheckpoints: readonly number[];
  readonly deletedCheckpoints: readonly number[];
  readonly keptPool: readonly number[];
  readonly deletedPool: readonly number[];
}

/**
 * Which checkpoints and pool snapshots a run keeps: the newest `keep`
 * per-iteration checkpoints (latest.json and best.json are separate files and
 * always stay), and every pool snapshot that one of the kept checkpoints would
 * sample when resumed from. A checkpoint at iteration c holds the newest
 * `poolSize` snapshots taken at or before c, so the pool files to keep are
 * those from the first of them for the oldest kept checkpoint onwards; later
 * snapshots, which the trainer samples now, are newer still and stay too.
 */
export function planRetention(
  checkpoints: readonly number[],
  pool: readonly number[],
  keep: number,
  poolSize: number,
): RetentionPlan {
  const sorted = [...checkpoints].sort((a, b) => a - b);
  const cut = Math.max(0, sorted.length - Math.max(1, keep));
  const keptCheckpoints = sorted.slice(cut);
  const deletedCheckpoints = sorted.slice(0, cut);
  const oldestKept = keptCheckpoints[0];
  const snapshots = [...pool].sort((a, b) => a - b);
  // Without a pool (expert iteration) no snapshot is needed; else those the oldest kept checkpoint samples.
  let keepFrom = poolSize === 0 ? Number.POSITIVE_INFINITY : Number.NEGATIVE_INFINITY;
  if (oldestKept !== undefined && poolSize > 0) {
    const seenByOldest = snapshots.filter((s) => s <= oldestKept);
    keepFrom =
      seenByOldest.length > 0
        ? (seenByOldest[Math.max(0, seenByOldest.length - poolSize)] as number)
        : Number.NEGATIVE_INFINITY;
  }
  return {
    keptCheckpoints,
    deletedCheckpoints,
    keptPool: snapshots.filter((s) => s >= keepFrom),
    deletedPool: snapshots.filter((s) => s < keepFrom),
  };
}

/**
 * Deletes the checkpoints and pool snapshots of a run that `planRetention`
 * lets go. Call it only after the iteration's checkpoint and latest.json are
 * written, so that what a resume needs is on disk before anything goes.
 */
export function pruneRun(
  paths: Pick<RunPaths, 'checkpoints' | 'pool'>,
  config: { readonly keepCheckpoints: number; readonly poolSize: number },
): RetentionPlan {
  const plan = planRetention(
    iterationsIn(paths.checkpoints),
    iterationsIn(paths.pool),
    config.keepCheckpoints,
    config.poolSize,
  );
  for (const i of plan.deletedCheckpoints)
    rmSync(join(paths.checkpoints, fileOf(i)), { force: true });
  for (const i of plan.deletedPool) rmSync(join(paths.pool, fileOf(i)), { force: true });
  return plan;
}
