import { join } from 'node:path';
import { STATE_SIZE } from '../../env/core.ts';
import { Random } from '../../env/random.ts';
import { NUM_ACTIONS } from '../../models/mlp-runner.ts';
import { readPolicyFile } from '../../models/read-policy-file.ts';
import type { Learner } from '../learner.ts';
import type { TrainConfig } from '../settings/schema.ts';
import {
  CheckpointError,
  type CheckpointPayload,
  loadTensorData,
  saveTensor,
} from './checkpoint.ts';
import {
  restoreModelWeights,
  restoreOptimizer,
  saveModelWeights,
  saveOptimizer,
} from './model-state.ts';

/** What a run has done so far: everything a checkpoint holds besides the config and the learner. */
export interface RunState {
  /** Iterations completed. */
  iteration: number;
  readonly counters: CheckpointPayload['counters'];
  rng: Random;
  readonly metrics: CheckpointPayload['metrics'];
  readonly curve: CheckpointPayload['curve'];
  best: CheckpointPayload['best'];
  lastEvaluation: CheckpointPayload['lastEvaluation'];
  lastAccuracy: CheckpointPayload['lastAccuracy'];
}

/** The state of a run that has not started. */
export function freshState(config: TrainConfig): RunState {
  return {
    iteration: 0,
    counters: { games: 0, plies: 0, samples: 0, elapsedSeconds: 0 },
    rng: Random.fromSeed(config.seed),
    metrics: [],
    curve: [],
    best: null,
    lastEvaluation: null,
    lastAccuracy: null,
  };
}

/**
 * Puts a checkpoint back: the learner's weights, Adam's state, the pool of
 * earlier snapshots of an algorithm that plays one (from their files in
 * `runDir`; an algorithm that plays none leaves the snapshots that runs of
 * earlier versions saved) and the algorithm's replay window, and returns the
 * run's state.
 */
export async function restoreRun(
  learner: Learner,
  checkpoint: { readonly path: string; readonly payload: CheckpointPayload },
  runDir: string,
): Promise<RunState> {
  const { path, payload } = checkpoint;
  restoreModelWeights(learner.tf, learner.model, payload.weights, path);
  await restoreOptimizer(learner.tf, learner.optimizer, learner.model, payload.optimizer, path);
  const pool = learner.algorithm.snapshots;
  if (pool !== null) {
    for (const { iteration, path: file } of payload.pool)
      pool.add(iteration, file, readPolicyFile(join(runDir, file)).weights);
  }
  restoreReplay(learner, payload.replay, path);
  return {
    iteration: payload.iteration,
    counters: { ...payload.counters },
    rng: Random.fromState(payload.rngState),
    metrics: payload.metrics,
    curve: payload.curve,
    best: payload.best,
    lastEvaluation: payload.lastEvaluation,
    lastAccuracy: payload.lastAccuracy ?? null,
  };
}

/** The checkpoint of the run as it stands. */
export async function snapshotRun(
  config: TrainConfig,
  state: RunState,
  learner: Learner,
): Promise<CheckpointPayload> {
  return {
    config,
    iteration: state.iteration,
    counters: { ...state.counters },
    rngState: state.rng.getState(),
    weights: saveModelWeights(learner.model),
    optimizer: await saveOptimizer(learner.optimizer, learner.model),
    pool: (learner.algorithm.snapshots?.entries() ?? []).map((s) => ({
      iteration: s.iteration,
      path: s.path,
    })),
    metrics: state.metrics,
    curve: state.curve,
    best: state.best,
    lastEvaluation: state.lastEvaluation,
    lastAccuracy: state.lastAccuracy,
    replay: savedReplay(learner),
  };
}

function savedReplay(learner: Learner): CheckpointPayload['replay'] {
  const replay = learner.algorithm.replay();
  if (replay === null) return null;
  const { iterationRows, states, policies, values } = replay;
  const rows = values.length;
  return {
    iterationRows: [...iterationRows],
    states: saveTensor('replay/states', [rows, STATE_SIZE], states),
    policies: saveTensor('replay/policies', [rows, NUM_ACTIONS], policies),
    values: saveTensor('replay/values', [rows], values),
  };
}

function restoreReplay(learner: Learner, saved: CheckpointPayload['replay'], path: string): void {
  try {
    learner.algorithm.restoreReplay(
      saved === null
        ? null
        : {
            iterationRows: saved.iterationRows,
            states: loadTensorData(saved.states, `checkpoint ${path}`),
            policies: loadTensorData(saved.policies, `checkpoint ${path}`),
            values: loadTensorData(saved.values, `checkpoint ${path}`),
          },
    );
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw new CheckpointError(`checkpoint ${path} is corrupt: its replay window ${error.message}`);
  }
}
