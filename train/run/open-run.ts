import { mkdirSync } from 'node:fs';
import { writeFileAtomic } from '../../eval/atomic-write.ts';
import type { TrainConfig } from '../config/schema.ts';
import { RunFolderError } from '../errors.ts';
import type { CheckpointPayload } from './checkpoint.ts';
import { type RunPaths, removeRun, runPaths } from './paths.ts';
import {
  findResumePoint,
  hasCheckpoints,
  removeOrphanTempFiles,
  resumedConfig,
  savedRunConfig,
} from './resume.ts';

/** A run folder ready to train in, and the checkpoint to continue from (on resume). */
export interface OpenedRun {
  readonly paths: RunPaths;
  readonly config: TrainConfig;
  readonly resumeFrom: { readonly path: string; readonly payload: CheckpointPayload } | null;
}

/**
 * Opens the run folder the caller names (a copied run resumes in its copy),
 * which the caller has locked: deletes an old run first for `overwrite`, finds
 * the checkpoint to resume from and the config to train with, refuses to start
 * over a run that has checkpoints, removes temp files a killed trainer left,
 * and saves the config.
 */
export function openRun(
  requested: TrainConfig,
  how: { readonly resume: boolean; readonly overwrite: boolean },
  log: (line: string) => void,
): OpenedRun {
  const paths = runPaths(requested);
  let resumeFrom: OpenedRun['resumeFrom'] = null;
  let config = requested;
  if (how.overwrite) removeRun(requested);
  if (how.resume) {
    resumeFrom = findResumePoint(paths, log);
    savedRunConfig(paths, resumeFrom);
    config = resumedConfig(resumeFrom.payload.config, requested);
  } else if (hasCheckpoints(paths)) {
    throw new RunFolderError(
      'has-checkpoints',
      `run ${paths.dir} already has checkpoints: pass --resume to continue it, or choose another --name`,
    );
  }
  removeOrphanTempFiles(paths);
  mkdirSync(paths.checkpoints, { recursive: true });
  mkdirSync(paths.pool, { recursive: true });
  writeFileAtomic(paths.config, `${JSON.stringify(config, null, 2)}\n`);
  return { paths, config, resumeFrom };
}
