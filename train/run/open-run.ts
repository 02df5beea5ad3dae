import { mkdirSync } from 'node:fs';
import { totalmem } from 'node:os';
import type { JobFiles } from '../../agents/spec.ts';
import { writeFileAtomic } from '../../files/atomic-write.ts';
import { lockFolder } from '../../files/folder-lock.ts';
import { algorithmOf, noShardsMessage } from '../algorithm/registry.ts';
import { buildConfig, runLocation } from '../config/build.ts';
import { checkEvalOpponents } from '../config/eval-opponents.ts';
import type { ConfigLayers } from '../config/layers.ts';
import { RunFolderError, TrainConfigError } from '../errors.ts';
import type { TrainConfig } from '../settings/schema.ts';
import type { CheckpointPayload } from './checkpoint.ts';
import { estimateRunMemory } from './memory-estimate.ts';
import { overMemoryLimit } from './memory-limit.ts';
import { checkRunLocation, type RunPaths, removeRun, runPaths } from './paths.ts';
import {
  exactResumePoint,
  findResumePoint,
  hasCheckpoints,
  removeOrphanTempFiles,
  resumedConfig,
} from './resume.ts';

/** What a run is opened from: its settings as layers, and whether to resume or start over. */
export interface RunRequest {
  /** A preset, a config file, flags (later ones win), or one whole config. */
  readonly layers: ConfigLayers;
  /** Continue the run from its newest checkpoint (the layers may change only CHANGEABLE_ON_RESUME). */
  readonly resume: boolean;
  /** Delete an existing run of the same name first (not with resume). */
  readonly overwrite: boolean;
  /** What the layers are called in messages (`config (my.json and flags)`). */
  readonly where: string;
}

/** What is checked of the run before its folder is touched. */
export interface RunChecks {
  readonly log: (line: string) => void;
  /** Its self-play shards are played elsewhere (the queue): its algorithm must have them. */
  readonly shardsElsewhere: boolean;
  /** A queue job's files, the only ones its baselines may read. */
  readonly files?: JobFiles;
  /** Called with the config before anything else is checked or written (the CLI checks its queue). */
  readonly ready?: (config: TrainConfig) => Promise<void>;
}

/** A run folder ready to train in, locked, and the checkpoint to continue from (on resume). */
export interface OpenedRun {
  readonly paths: RunPaths;
  readonly config: TrainConfig;
  /**
   * The checkpoint the run continues from (train/run/resume.ts's
   * exactResumePoint); null when it starts from iteration 0, afresh or, on
   * resume, over again.
   */
  readonly resumeFrom: { readonly path: string; readonly payload: CheckpointPayload } | null;
  /** Releases the run folder's lock, held from the opening. */
  release(): void;
}

/** Refuses a run this process cannot train: shards it has not, memory this machine lacks, bad baselines. */
async function checkRun(config: TrainConfig, checks: RunChecks): Promise<void> {
  if (checks.shardsElsewhere && algorithmOf(config).shards === null) {
    throw new TrainConfigError(noShardsMessage(config.algorithm));
  }
  // A run too large for this machine would die out of memory, and a bad
  // baseline fail only at the first evaluation.
  const tooLarge = overMemoryLimit(
    estimateRunMemory(config),
    totalmem(),
    'this run',
    "this machine's memory",
  );
  if (tooLarge !== null) throw new TrainConfigError(tooLarge);
  await checkEvalOpponents(config, checks.files);
}

/**
 * Opens a run, the one way every run starts: finds its folder from the
 * layers and locks it (a second process of the same run fails at once with a
 * FolderLockError naming the holder); on resume, finds the newest complete
 * checkpoint and lays the layers over the run's saved settings (only the
 * changeable ones may differ); otherwise builds the config from the layers;
 * checks it (`checks`); then deletes an old run for `overwrite`, refuses to
 * start over a run that has checkpoints, removes temp files a killed trainer
 * left, and saves the config. Nothing in the folder is touched before the
 * checks pass. The caller releases the lock.
 */
export async function openRun(request: RunRequest, checks: RunChecks): Promise<OpenedRun> {
  const location = runLocation(request.layers, request.where);
  checkRunLocation(location);
  const paths = runPaths(location);
  const lock = lockFolder(paths.dir, 'run');
  try {
    const newest = request.resume ? findResumePoint(paths, checks.log) : null;
    const config =
      newest === null
        ? buildConfig(request.layers, request.where)
        : resumedConfig(request.layers, newest, location, request.where);
    await checks.ready?.(config);
    await checkRun(config, checks);
    const resumeFrom = newest === null ? null : exactResumePoint(paths, newest, config, checks.log);
    if (request.overwrite && !request.resume) removeRun(location);
    if (!request.resume && hasCheckpoints(paths)) {
      throw new RunFolderError(
        'has-checkpoints',
        `run ${paths.dir} already has checkpoints: pass --resume to continue it, or choose another --name`,
      );
    }
    removeOrphanTempFiles(paths);
    mkdirSync(paths.checkpoints, { recursive: true });
    mkdirSync(paths.pool, { recursive: true });
    writeFileAtomic(paths.config, `${JSON.stringify(config, null, 2)}\n`);
    return { paths, config, resumeFrom, release: () => lock.release() };
  } catch (error) {
    lock.release();
    throw error;
  }
}
