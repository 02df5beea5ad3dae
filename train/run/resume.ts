import { existsSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { CheckpointError } from '../../models/errors.ts';
import { buildConfig, differingSettings } from '../config/build.ts';
import { asLayer, type ConfigLayers } from '../config/layers.ts';
import { parseTrainConfig } from '../config/validate.ts';
import { TrainConfigError } from '../errors.ts';
import type { TrainConfig } from '../settings/schema.ts';
import { type CheckpointPayload, readCheckpoint } from './checkpoint.ts';
import { runPaths } from './paths.ts';

/**
 * Settings a resumed run may change: how long it runs, how it is shown, and how
 * it is evaluated. Everything else shapes the training itself and stays as saved.
 */
export const CHANGEABLE_ON_RESUME = [
  'iterations',
  'timeLimitMinutes',
  'progress',
  'workers',
  'evalEvery',
  'evalGames',
  'evalOpponents',
  'evalOpeningPlies',
  'extraEvalOpeningPlies',
  'evalAccuracyPositions',
  'finalEvalGames',
  'keepCheckpoints',
] as const satisfies readonly (keyof TrainConfig)[];

/** Where the run lives comes from the command line, never from the checkpoint (runs can be copied). */
const LOCATION = ['name', 'runsDir'] as const satisfies readonly (keyof TrainConfig)[];

type RunPaths = ReturnType<typeof runPaths>;

const ITER_FILE = /^iter-(\d+)\.json$/;

/** `iter-NNNNNN.json` checkpoints of a run, newest first. */
function iterationCheckpoints(paths: RunPaths): { iteration: number; path: string }[] {
  if (!existsSync(paths.checkpoints)) return [];
  return readdirSync(paths.checkpoints)
    .flatMap((name) => {
      const match = ITER_FILE.exec(name);
      return match ? [{ iteration: Number(match[1]), path: join(paths.checkpoints, name) }] : [];
    })
    .sort((a, b) => b.iteration - a.iteration);
}

/** True when the run folder holds any checkpoint (latest or per-iteration). */
export function hasCheckpoints(paths: RunPaths): boolean {
  return existsSync(paths.latest) || iterationCheckpoints(paths).length > 0;
}

/**
 * The newest complete checkpoint of a run. `latest.json` is written after the
 * iteration's own `iter-*.json`, so a run killed between the two leaves a newer
 * iteration file: that one wins. A corrupt `latest.json` (truncated, edited)
 * gives way to the newest intact iteration file, with a line saying so; only
 * when there is none is it an error. Unreadable iteration files are skipped
 * with a note.
 */
export function findResumePoint(
  paths: RunPaths,
  log: (line: string) => void = () => {},
): { path: string; payload: CheckpointPayload } {
  let latest: CheckpointPayload | null = null;
  let latestError: Error | null = null;
  if (existsSync(paths.latest)) {
    try {
      latest = readCheckpoint(paths.latest);
    } catch (error) {
      // Settings this version refuses are not damage: an older checkpoint holds the same.
      if (error instanceof TrainConfigError) throw error;
      latestError = error as Error;
    }
  }
  for (const candidate of iterationCheckpoints(paths)) {
    if (latest !== null && candidate.iteration <= latest.iteration) break;
    let payload: CheckpointPayload;
    try {
      payload = readCheckpoint(candidate.path);
    } catch (error) {
      log(`skipping ${candidate.path}: ${(error as Error).message}`);
      continue;
    }
    if (latestError !== null) {
      log(
        `${latestError.message}; resuming from the newest intact checkpoint instead, ${candidate.path} (iteration ${payload.iteration})`,
      );
    }
    return { path: candidate.path, payload };
  }
  if (latestError !== null) throw latestError;
  if (latest === null) {
    throw new CheckpointError(
      existsSync(paths.dir)
        ? `run ${paths.dir} has no checkpoint to resume from (${paths.latest} does not exist): it stopped before its first checkpoint; train it again without --resume`
        : `there is no run ${paths.dir} to resume: check --name and --runs-dir, or train it without --resume`,
    );
  }
  return { path: paths.latest, payload: latest as CheckpointPayload };
}

type ResumePoint = { readonly path: string; readonly payload: CheckpointPayload };

/**
 * The checkpoint a resume of `config`'s run restores, given `newest`, its
 * newest complete one; null to train it again from the start. Games go on
 * from one iteration to the next and start afresh only at a checkpoint
 * boundary (every `checkpointEvery` iterations), so a run continues exactly
 * as the uncut one only from a boundary. A run the time limit (or its
 * iteration count, since raised) ended between two boundaries resumes from
 * the newest boundary's checkpoint before it, which the run kept (pruning
 * waits for the next boundary), and trains the iterations after it again;
 * one that ended before its first boundary starts over. Said in a line
 * either way. A run that has all its iterations, or whose time limit is
 * still up, resumes where it ended: it trains nothing more.
 */
export function exactResumePoint(
  paths: RunPaths,
  newest: ResumePoint,
  config: TrainConfig,
  log: (line: string) => void = () => {},
): ResumePoint | null {
  const { iteration, counters } = newest.payload;
  const every = config.checkpointEvery;
  if (iteration % every === 0 || iteration >= config.iterations) return newest;
  // A time limit that has run out trains nothing: the run ends where it ended.
  const limit = config.timeLimitMinutes;
  if (limit !== null && counters.elapsedSeconds >= limit * 60) return newest;
  const boundary = iteration - (iteration % every);
  const again = `iterations ${boundary + 1} to ${iteration} are trained again, so that the run goes on as the uncut run does`;
  if (boundary === 0) {
    log(
      `ayoayo train: run ${paths.dir} stopped at iteration ${iteration}, before its first checkpoint boundary (every ${every} iterations): it starts over; ${again}`,
    );
    return null;
  }
  const file = iterationCheckpoints(paths).find((c) => c.iteration === boundary);
  let payload: CheckpointPayload | null = null;
  if (file !== undefined) {
    try {
      payload = readCheckpoint(file.path);
    } catch (error) {
      log(`skipping ${file.path}: ${(error as Error).message}`);
    }
  }
  if (file === undefined || payload === null) {
    log(
      `ayoayo train: run ${paths.dir} stopped at iteration ${iteration}, between checkpoint boundaries, and holds no intact checkpoint of iteration ${boundary}: it resumes from iteration ${iteration} with fresh games, so from here it is not the run an uncut one trains`,
    );
    return newest;
  }
  log(
    `ayoayo train: run ${paths.dir} stopped at iteration ${iteration}, between checkpoint boundaries (every ${every} iterations): it resumes from ${file.path}; ${again}`,
  );
  return { path: file.path, payload };
}

/** A temp file of the atomic writer (`.NAME.PID.tmp`) left behind by a killed process. */
const TEMP_FILE = /^\..+\.\d+\.tmp$/;

/** Deletes temp files that a killed trainer left in the run folder. */
export function removeOrphanTempFiles(paths: RunPaths): string[] {
  const removed: string[] = [];
  for (const dir of [paths.dir, paths.checkpoints, paths.pool]) {
    if (!existsSync(dir)) continue;
    for (const name of readdirSync(dir)) {
      if (!TEMP_FILE.test(name)) continue;
      rmSync(join(dir, name), { force: true });
      removed.push(join(dir, name));
    }
  }
  return removed;
}

/** `key (run: A, given: B)` for each setting outside `keep` that differs between the two configs. */
function differences(
  saved: TrainConfig,
  given: TrainConfig,
  keep: ReadonlySet<string>,
  names: { readonly saved: string; readonly given: string },
): string[] {
  return differingSettings(saved, given, keep).map(
    (d) =>
      `${d.path} (${names.saved}: ${JSON.stringify(d.a)}, ${names.given}: ${JSON.stringify(d.b)})`,
  );
}

const KEEP = new Set<string>([...CHANGEABLE_ON_RESUME, ...LOCATION]);

/**
 * The settings a resume of the run saved as `saved` could not take from
 * `given`, each as `key (run: A, <givenName>: B)`; none when it may resume.
 */
export function unresumableSettings(
  saved: TrainConfig,
  given: TrainConfig,
  givenName = 'given',
): string[] {
  return differences(saved, given, KEEP, { saved: 'run', given: givenName });
}

/**
 * The run's config.json, checked against the checkpoint it resumes from: a
 * setting edited there that a resumed run may not change is refused as the same
 * setting given as a flag is, naming it, rather than silently written back. A
 * config.json of earlier versions is read as the config it stands for
 * (config/legacy.ts). Returns the file's config (its changeable settings
 * apply), or null when the run has none.
 */
export function savedRunConfig(
  paths: RunPaths,
  checkpoint: { readonly path: string; readonly payload: CheckpointPayload },
): TrainConfig | null {
  const checkpointConfig = checkpoint.payload.config;
  if (!existsSync(paths.config)) return null;
  let data: unknown;
  try {
    data = JSON.parse(readFileSync(paths.config, 'utf8'));
  } catch {
    throw new TrainConfigError(
      `--resume cannot read ${paths.config}: not valid JSON; fix it, or remove it to resume with the checkpoint's settings`,
    );
  }
  const file = parseTrainConfig(data, `config ${paths.config}`);
  const edited = differences(checkpointConfig, file, KEEP, {
    saved: 'checkpoint',
    given: 'config.json',
  });
  if (edited.length > 0) {
    // A run's checkpoints and its config.json carry the run's name (a resumed
    // copy rewrites both), so differing names mean one file came from another run.
    if (file.name !== checkpointConfig.name) {
      throw new TrainConfigError(
        `--resume cannot change ${edited.join(', ')}: ${checkpoint.path} was written by run ${JSON.stringify(checkpointConfig.name)} and ${paths.config} by run ${JSON.stringify(file.name)}; put back this run's own checkpoint or config.json, or train a new run`,
      );
    }
    throw new TrainConfigError(
      `--resume cannot change ${edited.join(', ')}, edited in ${paths.config}; a resumed run may change only ${CHANGEABLE_ON_RESUME.join(', ')}: put it back, or train a new run with it`,
    );
  }
  return file;
}

/**
 * The config a resumed run trains with: its checkpoint's settings, then the
 * changeable ones edited in its config.json, then `layers` (a preset, a
 * config file, flags, or a whole config), at the location `location` names,
 * so that only settings given can differ from the run's. A setting that
 * differs from the checkpoint's and that a resumed run may not change is an
 * error naming each.
 */
export function resumedConfig(
  layers: ConfigLayers,
  resumePoint: { readonly path: string; readonly payload: CheckpointPayload },
  location: { readonly name: string; readonly runsDir: string },
  where = 'config',
): TrainConfig {
  const { payload } = resumePoint;
  const saved = savedRunConfig(runPaths(location), resumePoint);
  // Said first and alone: built on the run's settings, another algorithm would
  // report each of the run's own algorithm's settings as not applying to it.
  const algorithm = layers
    .map((layer): unknown => (layer === undefined ? undefined : asLayer(layer).settings.algorithm))
    .findLast((a) => a !== undefined);
  if (algorithm !== undefined && algorithm !== payload.config.algorithm) {
    throw new TrainConfigError(
      `--resume cannot change algorithm (run: ${JSON.stringify(payload.config.algorithm)}, given: ${JSON.stringify(algorithm)}); a resumed run may change only ${CHANGEABLE_ON_RESUME.join(', ')}`,
    );
  }
  const config = buildConfig(
    [payload.config, saved ?? undefined, ...layers, { ...location }],
    where,
  );
  const differing = unresumableSettings(payload.config, config);
  if (differing.length > 0) {
    throw new TrainConfigError(
      `--resume cannot change ${differing.join(', ')}; a resumed run may change only ${CHANGEABLE_ON_RESUME.join(', ')}`,
    );
  }
  return config;
}
