import '../setup/builtin-algorithms.ts';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ObservationEncoder } from '../../env/gym/observation.ts';
import { core, DEFAULT_RULES, Random } from '../../env/index.ts';
import { isBalancedState } from '../../eval/openings.ts';
import { loadBackend, type Tf } from '../../models/backend.ts';
import { encodeCheckpoint } from '../../models/checkpoint-file.ts';
import { NUM_ACTIONS, plainForward } from '../../models/mlp-runner.ts';
import { createPolicyValueModel, extractMlpWeights } from '../../models/policy-value-model.ts';
import { readPolicyFile } from '../../models/read-policy-file.ts';
import { buildConfig } from '../../train/config/build.ts';
import { readLayer } from '../../train/config/layers.ts';
import { PRESETS } from '../../train/config/presets.ts';
import { TrainConfigError } from '../../train/errors.ts';
import { ReplayBuffer } from '../../train/expert-iteration/replay-buffer.ts';
import { SearchSelfPlay } from '../../train/expert-iteration/search-self-play.ts';
import { SearchTargetUpdater } from '../../train/expert-iteration/search-update.ts';
import type { ExpertIterationSettings } from '../../train/expert-iteration/settings.ts';
import { TrainingOpenings } from '../../train/expert-iteration/training-openings.ts';
import { buildLearner, disposeLearner } from '../../train/learner.ts';
import { CheckpointError, readCheckpoint } from '../../train/run/checkpoint.ts';
import { runPaths } from '../../train/run/paths.ts';
import type { ConfigLayer } from '../../train/settings/layer.ts';
import type { TrainConfig } from '../../train/settings/schema.ts';
import { train } from '../../train/trainer.ts';

/** Settings as a config file or a sweep gives them (keyed by their flags), read once where they come in. */
const fromFile = (fields: Record<string, unknown>) => buildConfig([readLayer(fields, 'config')]);

import { selfPlayOptions } from './self-play-options.ts';

const rules = DEFAULT_RULES;
const observation = { encoding: 'counts', lookahead: true } as const;
let tf: Tf;

beforeAll(async () => {
  tf = (await loadBackend('auto')).tf;
});

function selfPlay(
  policyTarget: 'completed-q' | 'visits',
  seed = 1,
  searchValueWeight = 0,
): { play: SearchSelfPlay; buffer: ReplayBuffer; dispose: () => void } {
  const network = { hidden: [16], activation: 'relu' as const };
  const model = createPolicyValueModel(tf, 146, network, seed);
  const openings = new TrainingOpenings({ minPlies: 0, maxPlies: 8, balanced: false }, rules);
  const play = new SearchSelfPlay(
    plainForward(extractMlpWeights(model, network)),
    selfPlayOptions({ policyTarget, searchValueWeight }),
    openings,
  );
  return {
    play,
    buffer: new ReplayBuffer(64, new ObservationEncoder(observation, rules)),
    dispose: () => model.dispose(),
  };
}

describe('search self-play', () => {
  it.each(['completed-q', 'visits'] as const)(
    '%s: targets are distributions over the legal actions and outcomes are each mover’s result',
    (target) => {
      const { play, buffer, dispose } = selfPlay(target);
      const rng = Random.fromSeed(3);
      play.reset(rng);
      const stats = play.collect(400, buffer, rng);
      expect(stats.plies).toBeGreaterThanOrEqual(400);
      expect(stats.games).toBeGreaterThan(0);
      expect(buffer.size).toBe(stats.learnerSamples);
      expect(buffer.size).toBeGreaterThan(0);
      for (let row = 0; row < buffer.size; row++) {
        let sum = 0;
        for (let a = 0; a < NUM_ACTIONS; a++) {
          const p = buffer.policies[row * NUM_ACTIONS + a] as number;
          if (buffer.masks[row * NUM_ACTIONS + a] === 0) expect(p).toBe(0);
          expect(p).toBeGreaterThanOrEqual(0);
          sum += p;
        }
        expect(sum).toBeCloseTo(1, 5);
        expect([-1, 0, 1]).toContain(buffer.values[row]);
      }
      // Zero-sum: summed over whole games, the two sides' outcomes cancel except for
      // the sides' unequal move counts; every game's samples are of one result.
      expect(stats.meanGamePlies).toBeGreaterThan(0);
      dispose();
    },
  );

  it('the same seed plays the same games and produces the same targets', () => {
    const run = () => {
      const { play, buffer, dispose } = selfPlay('completed-q');
      const rng = Random.fromSeed(9);
      play.reset(rng);
      play.collect(200, buffer, rng);
      const out = {
        size: buffer.size,
        policies: [...buffer.policies.subarray(0, buffer.size * NUM_ACTIONS)],
        values: [...buffer.values.subarray(0, buffer.size)],
        rng: rng.getState(),
      };
      dispose();
      return out;
    };
    expect(run()).toEqual(run());
  });
});

describe('the replay window and the value targets', () => {
  it('keeps the positions of the last N iterations, oldest first, and drops older ones', () => {
    const { play, dispose } = selfPlay('completed-q', 2);
    const buffer = new ReplayBuffer(16, new ObservationEncoder(observation, rules), 2);
    const rng = Random.fromSeed(5);
    play.reset(rng);
    const newest: Uint8Array[] = [];
    for (let i = 0; i < 3; i++) {
      buffer.startIteration();
      const stats = play.collect(150, buffer, rng);
      expect(buffer.newestRows).toBe(stats.learnerSamples);
      const from = buffer.size - buffer.newestRows;
      newest.push(buffer.states.slice(from * core.STATE_SIZE, buffer.size * core.STATE_SIZE));
    }
    // After three iterations a window of two holds the second's rows, then the third's.
    const [, second, third] = newest as [Uint8Array, Uint8Array, Uint8Array];
    expect(buffer.iterationRows).toEqual([
      second.length / core.STATE_SIZE,
      third.length / core.STATE_SIZE,
    ]);
    expect(buffer.size * core.STATE_SIZE).toBe(second.length + third.length);
    expect(buffer.states.subarray(0, second.length)).toEqual(second);
    // Every row's observation and mask are its own state's, after the shift too.
    const encoder = new ObservationEncoder(observation, rules);
    const obs = new Float32Array(encoder.size);
    for (let row = 0; row < buffer.size; row++) {
      const state = buffer.states.subarray(row * core.STATE_SIZE, (row + 1) * core.STATE_SIZE);
      const mask = encoder.encode(state, obs, 0);
      expect(buffer.observations.subarray(row * encoder.size, (row + 1) * encoder.size)).toEqual(
        obs,
      );
      for (let a = 0; a < NUM_ACTIONS; a++) {
        expect(buffer.masks[row * NUM_ACTIONS + a]).toBe((mask >> a) & 1);
      }
    }
    dispose();
  });

  it('a checkpoint copy of the window restores the same rows, and a mismatched one is refused', () => {
    const { play, buffer, dispose } = selfPlay('visits', 3);
    const rng = Random.fromSeed(8);
    play.reset(rng);
    play.collect(120, buffer, rng);
    const saved = buffer.contents();
    const copy = new ReplayBuffer(4, new ObservationEncoder(observation, rules), 1);
    copy.restore(saved);
    expect(copy.size).toBe(buffer.size);
    expect(copy.iterationRows).toEqual(buffer.iterationRows);
    const widths = {
      states: core.STATE_SIZE,
      observations: 146,
      masks: NUM_ACTIONS,
      policies: NUM_ACTIONS,
      values: 1,
    };
    for (const [key, width] of Object.entries(widths) as [keyof typeof widths, number][]) {
      const used = width * buffer.size;
      expect(copy[key].subarray(0, used)).toEqual(buffer[key].subarray(0, used));
    }
    expect(() => copy.restore({ ...saved, values: saved.values.subarray(1) })).toThrow(
      /replay values hold \d+ numbers, expected \d+/,
    );
    expect(() => copy.restore({ ...saved, iterationRows: [1, 1] })).toThrow(
      /holds 2 iterations, more than the run's 1/,
    );
    dispose();
  });

  it("mixes the search's root value into the value target by the given weight", () => {
    const valuesWith = (weight: number): Float32Array => {
      const { play, buffer, dispose } = selfPlay('completed-q', 4, weight);
      const rng = Random.fromSeed(12);
      play.reset(rng);
      play.collect(200, buffer, rng);
      dispose();
      return buffer.values.slice(0, buffer.size);
    };
    // The weight changes the targets only, never the games: the same seed plays the same moves.
    const outcome = valuesWith(0);
    const root = valuesWith(1);
    const half = valuesWith(0.5);
    expect(root.length).toBe(outcome.length);
    expect(root.some((v) => v !== 0 && v !== 1 && v !== -1)).toBe(true);
    for (let i = 0; i < outcome.length; i++) {
      expect(Math.abs(root[i] as number)).toBeLessThanOrEqual(1);
      expect(half[i]).toBeCloseTo(((outcome[i] as number) + (root[i] as number)) / 2, 5);
    }
  });

  it('refuses a replay window and root-value targets for PPO', () => {
    expect(() => fromFile({ replayIterations: 4 })).toThrow(
      /expertIteration.replayIterations \(--replay-iterations\): applies to --algorithm expert-iteration only/,
    );
    expect(() => fromFile({ expertIteration: { searchValueWeight: 0.5 } })).toThrow(
      /expertIteration.searchValueWeight \(--search-value-weight\): applies to --algorithm expert-iteration only \(the run's algorithm is ppo\)/,
    );
    expect(() => fromFile({ algorithm: 'expert-iteration', searchValueWeight: 1.5 })).toThrow(
      /expertIteration.searchValueWeight \(--search-value-weight\): Too big/,
    );
  });
});

describe('training openings', () => {
  it('draws every depth of the range, and only balanced positions when asked', () => {
    const rng = Random.fromSeed(4);
    const plain = new TrainingOpenings({ minPlies: 0, maxPlies: 8, balanced: false }, rules);
    const state = new Uint8Array(core.STATE_SIZE);
    const counts = new Array<number>(9).fill(0);
    for (let i = 0; i < 900; i++) {
      const plies = plain.draw(state, rng);
      counts[plies] = (counts[plies] as number) + 1;
    }
    // Uniform over 0..8 (an opening that would end the game stops early, which is rare this soon).
    for (const count of counts) expect(count).toBeGreaterThan(60);
    const balanced = new TrainingOpenings({ minPlies: 4, maxPlies: 4, balanced: true }, rules);
    for (let i = 0; i < 20; i++) {
      balanced.draw(state, rng);
      expect(isBalancedState(state, rules)).toBe(true);
    }
  });

  it('refuses a range whose maximum is below its minimum, in the config too', () => {
    expect(
      () => new TrainingOpenings({ minPlies: 4, maxPlies: 2, balanced: false }, rules),
    ).toThrow(/max 2 is below min 4/);
    const ei = { algorithm: 'expert-iteration' } as const;
    expect(() => fromFile({ ...ei, openingPlies: 4, openingPliesMax: 2 })).toThrow(
      TrainConfigError,
    );
    expect(() =>
      fromFile({ ...ei, expertIteration: { openingPlies: 4, openingPliesMax: 2 } }),
    ).toThrow(/openingPliesMax \(--opening-plies-max\): is 2, below openingPlies \(4\)/);
  });

  it('refuses opening ranges and balancing for PPO, whose environments play a fixed number of opening plies', () => {
    expect(() => fromFile({ openingPliesMax: 8 })).toThrow(
      /openingPliesMax \(--opening-plies-max\): applies to --algorithm expert-iteration only \(the run's algorithm is ppo\)/,
    );
    expect(() => fromFile({ algorithm: 'reinforce', balancedOpenings: true })).toThrow(
      /balancedOpenings \(--balanced-openings\): applies to --algorithm expert-iteration only \(the run's algorithm is reinforce\)/,
    );
    const config = fromFile({ algorithm: 'expert-iteration', openingPliesMax: 8 });
    expect(config).toMatchObject({ expertIteration: { openingPliesMax: 8 } });
    // `--opening-plies` is each algorithm's own.
    expect(fromFile({ openingPlies: 2 })).toMatchObject({ ppo: { openingPlies: 2 } });
  });
});

describe('the search-target update', () => {
  it('moves the policy towards the targets and the value towards the outcomes', async () => {
    const model = createPolicyValueModel(tf, 146, { hidden: [32], activation: 'relu' }, 5);
    const updater = new SearchTargetUpdater(
      tf,
      model,
      tf.train.adam(3e-3),
      { epochs: 4, minibatchSize: 64, valueCoef: 1, maxGradNorm: 5 },
      146,
    );
    const { play, buffer, dispose } = selfPlay('completed-q', 6);
    const rng = Random.fromSeed(6);
    play.reset(rng);
    play.collect(300, buffer, rng);
    const first = await updater.update(buffer, rng);
    let last = first;
    for (let i = 0; i < 20; i++) last = await updater.update(buffer, rng);
    expect(last.policyLoss).toBeLessThan(first.policyLoss);
    expect(last.valueLoss).toBeLessThan(first.valueLoss);
    expect(Object.keys(last).sort()).toEqual([
      'entropy',
      'policyLoss',
      'samples',
      'seconds',
      'valueLoss',
    ]);
    expect(last.samples).toBe(buffer.size * 4);
    model.dispose();
    dispose();
  });
});

function tinyExpertIteration(
  runsDir: string,
  name: string,
  block: Partial<ExpertIterationSettings> = {},
  shared: ConfigLayer = {},
): TrainConfig {
  return buildConfig([
    PRESETS.smoke,
    {
      runsDir,
      name,
      algorithm: 'expert-iteration',
      minibatchSize: 32,
      ...shared,
      expertIteration: {
        simulations: 4,
        gamesAtOnce: 8,
        movesPerIteration: 96,
        openingPlies: 0,
        openingPliesMax: 6,
        balancedOpenings: true,
        epochs: 2,
        ...block,
      },
    },
  ]);
}

describe('expert iteration training', () => {
  it('a tiny run trains, evaluates and writes a usable policy', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ayoayo-az-'));
    const config = tinyExpertIteration(dir, 'smoke', {}, { extraEvalOpeningPlies: [2] });
    const result = await train(config, { resume: false, log: () => {} });
    expect(result.iteration).toBe(2);
    const latest = readCheckpoint(runPaths(config).latest);
    expect(latest.counters.samples).toBeGreaterThan(0);
    for (const row of latest.metrics) {
      expect(Number.isFinite(row['losses/policy'])).toBe(true);
      expect(Number.isFinite(row['losses/value'])).toBe(true);
      expect(row['losses/approx_kl']).toBe('');
    }
    expect(readPolicyFile(result.policyPath).weights.hidden[0]?.outputSize).toBe(16);
    expect(result.finalEvaluation?.rows.map((r) => r.opponent)).toEqual(['random']);
    const saved = JSON.parse(readFileSync(runPaths(config).finalEvaluation, 'utf8')) as {
      openingPlies: number;
      otherOpeningDepths: { openingPlies: number; rows: { opponent: string }[] }[];
    };
    expect(saved.openingPlies).toBe(config.evalOpeningPlies);
    expect(saved.otherOpeningDepths.map((d) => d.openingPlies)).toEqual([2]);
    expect(saved.otherOpeningDepths[0]?.rows.map((r) => r.opponent)).toEqual(['random']);
  });

  it('refuses to resume from a checkpoint whose replay window does not add up, naming it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ayoayo-az-replay-'));
    const config = tinyExpertIteration(dir, 'replay', { replayIterations: 2 });
    await train(config, { resume: false, log: () => {} });
    const latest = runPaths(config).latest;
    const payload = readCheckpoint(latest);
    expect(payload.replay?.iterationRows.length).toBe(2);
    const replay = payload.replay as NonNullable<typeof payload.replay>;
    writeFileSync(
      latest,
      encodeCheckpoint({ ...payload, replay: { ...replay, iterationRows: [1, 1] } }),
    );
    const resumed = { ...config, iterations: 3 };
    await expect(train(resumed, { resume: true, log: () => {} })).rejects.toThrow(CheckpointError);
    await expect(train(resumed, { resume: true, log: () => {} })).rejects.toThrow(
      /checkpoint .*latest.* is corrupt: its replay window replay states hold \d+ numbers, expected 32/,
    );
  });

  it('leaks no tensors from one iteration to the next', async () => {
    const config = tinyExpertIteration('unused', 'leak');
    const learner = await buildLearner(tf, config);
    const rng = Random.fromSeed(2);
    learner.algorithm.reset(1, rng);
    await learner.algorithm.collect(rng, 1);
    await learner.algorithm.update(rng);
    const before = tf.memory().numTensors;
    for (let i = 0; i < 3; i++) {
      await learner.algorithm.collect(rng, i + 2);
      await learner.algorithm.update(rng);
    }
    expect(tf.memory().numTensors).toBe(before);
    await disposeLearner(learner);
  });
});
