import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type * as tfType from '@tensorflow/tfjs';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { configFlags } from '../../cli/train-flags.ts';
import { ObservationEncoder } from '../../env/gym/observation.ts';
import { initialPosition, legalActions, playMove, type Random } from '../../env/index.ts';
import { NUM_ACTIONS } from '../../models/mlp-runner.ts';
import { maskedLogits } from '../../models/policy-value-model.ts';
import { readPolicyFile } from '../../models/read-policy-file.ts';
import { algorithmNames, noShardsMessage } from '../../train/algorithm/registry.ts';
import {
  buildConfig,
  defineAlgorithm,
  type LearnerParts,
  PRESETS,
  readLayer,
  registerAlgorithm,
  setting,
  type TrainConfig,
  TrainConfigError,
  type TrainingAlgorithm,
  train,
} from '../../train/index.ts';
import { part } from '../../train/memory/parts.ts';
import { readCheckpoint } from '../../train/run/checkpoint.ts';
import { estimateRunMemory } from '../../train/run/memory-estimate.ts';
import { runPaths } from '../../train/run/paths.ts';
import { observationOf } from '../../train/settings/schema.ts';

/**
 * A third training algorithm, defined and registered here alone, with no
 * line of train/ changed for it: each iteration it draws random positions
 * (a few random plies from the start) from the run's generator and teaches
 * the network the uniform policy over their legal moves and a value of 0.
 * It is no good for playing; it is what every algorithm is to the trainer.
 */
const tinySettings = z
  .object({
    positions: setting(z.number().int().min(1).max(4096).default(32), {
      description: 'random positions drawn each iteration',
      unit: 'positions',
    }),
  })
  .strict();

type TinyConfig = TrainConfig & { readonly tiny: z.output<typeof tinySettings> };

class Tiny implements TrainingAlgorithm {
  readonly gradientBackend = 'tfjs';
  readonly snapshots = null;
  readonly #encoder: ObservationEncoder;
  readonly #observations: Float32Array;
  readonly #masks: Float32Array;

  constructor(
    private readonly parts: LearnerParts,
    private readonly config: TinyConfig,
  ) {
    this.#encoder = new ObservationEncoder(observationOf(config), parts.rules);
    this.#observations = new Float32Array(config.tiny.positions * parts.obsSize);
    this.#masks = new Float32Array(config.tiny.positions * NUM_ACTIONS);
  }

  reset(): void {}

  collect(rng: Random): Promise<{
    plies: number;
    games: number;
    learnerSamples: number;
    seconds: number;
    meanGamePlies: number;
  }> {
    const { rules } = this.parts;
    const n = this.config.tiny.positions;
    let plies = 0;
    for (let i = 0; i < n; i++) {
      let position = initialPosition();
      for (let ply = rng.int(8); ply > 0; ply--) {
        const legal = legalActions(position, rules);
        if (legal.length === 0) break;
        position = playMove(position, legal[rng.int(legal.length)] as number, rules).position;
        plies++;
      }
      const mask = this.#encoder.encode(
        position.toState(),
        this.#observations,
        i * this.parts.obsSize,
      );
      for (let a = 0; a < NUM_ACTIONS; a++) this.#masks[i * NUM_ACTIONS + a] = (mask >> a) & 1;
    }
    return Promise.resolve({ plies, games: 0, learnerSamples: n, seconds: 1e-3, meanGamePlies: 0 });
  }

  update(): {
    policyLoss: number;
    valueLoss: number;
    entropy: number;
    samples: number;
    seconds: number;
  } {
    const { tf, model, optimizer, obsSize } = this.parts;
    const n = this.config.tiny.positions;
    const [policyLoss, valueLoss, entropy] = tf.tidy(() => {
      const x = tf.tensor2d(this.#observations, [n, obsSize]);
      const mask = tf.tensor2d(this.#masks, [n, NUM_ACTIONS]);
      const uniform = tf.div(mask, tf.sum(mask, 1, true).maximum(1));
      let losses: tfType.Scalar[] = [];
      optimizer.minimize(() => {
        const [logits, value] = model.apply(x, { training: true }) as tfType.Tensor[];
        const masked = maskedLogits(tf, logits as tfType.Tensor, mask);
        const probs = tf.softmax(masked);
        const policy = tf.losses.softmaxCrossEntropy(uniform, masked);
        const values = tf.mean(tf.square(value as tfType.Tensor));
        const spread = tf.mean(tf.neg(tf.sum(tf.mul(probs, tf.log(tf.add(probs, 1e-12))), 1)));
        losses = [policy, values, spread].map((t) => tf.keep(t.asScalar()));
        return tf.add(policy, values).asScalar();
      });
      return losses.map((t) => t.dataSync()[0] as number);
    });
    return {
      policyLoss: policyLoss as number,
      valueLoss: valueLoss as number,
      entropy: entropy as number,
      samples: n,
      seconds: 1e-3,
    };
  }

  ownMetrics(): Record<string, number> {
    return { 'tiny/positions': this.config.tiny.positions };
  }

  snapshotDue(): boolean {
    return false;
  }

  replay(): null {
    return null;
  }

  restoreReplay(saved: unknown): void {
    if (saved !== null) throw new RangeError('holds a replay window, which tiny never keeps');
  }

  dispose(): Promise<void> {
    return Promise.resolve();
  }
}

const tiny = defineAlgorithm({
  names: { tiny: 'a tiny algorithm of the test suite' },
  title: 'tiny',
  block: 'tiny',
  settings: tinySettings,
  metrics: [['tiny/positions', 'positions the tiny algorithm drew']],
  build: (parts, config) => Promise.resolve(new Tiny(parts, config)),
  memory: (config) => [
    part('the tiny positions', config.tiny.positions * 1000, { positions: config.tiny.positions }),
  ],
});
registerAlgorithm(tiny);

const tinyRun = (runsDir: string, name: string) => [
  PRESETS.smoke,
  { runsDir, name, algorithm: 'tiny', tiny: { positions: 24 } },
];

describe('a training algorithm registered from outside train/', () => {
  it('gets its name, its flags and their help, and its block in the config', () => {
    expect(algorithmNames()).toContain('tiny');
    const flags = configFlags();
    expect(flags.algorithm?.choices).toContain('tiny');
    expect(flags.positions).toMatchObject({
      group: 'Tiny settings (--algorithm tiny):',
      defaultDescription: '32 positions',
    });
    expect(flags.positions?.describe).toBe(
      'random positions drawn each iteration; an integer from 1 to 4096',
    );
    expect(buildConfig([readLayer({ algorithm: 'tiny', positions: 5 }, 'config')])).toMatchObject({
      algorithm: 'tiny',
      tiny: { positions: 5 },
    });
    expect(() => buildConfig([{ algorithm: 'ppo', tiny: { positions: 5 } }])).toThrow(
      "invalid config: tiny.positions (--positions): applies to --algorithm tiny only (the run's algorithm is ppo)",
    );
    expect(() => buildConfig([{ algorithm: 'tiny', tiny: { positions: 0 } }])).toThrow(
      'invalid config: tiny.positions (--positions): Too small',
    );
    const config = buildConfig([{ algorithm: 'tiny' }]);
    expect(estimateRunMemory(config).parts.map((p) => p.what)).toContain('the tiny positions');
  });

  it('trains for two iterations through train(), its metrics in metrics.csv', async () => {
    const runsDir = mkdtempSync(join(tmpdir(), 'ayoayo-tiny-'));
    const result = await train(tinyRun(runsDir, 'tiny'), { resume: false, log: () => {} });
    expect(result.iteration).toBe(2);
    const paths = runPaths({ runsDir, name: 'tiny' });
    const [header, ...rows] = readFileSync(paths.metrics, 'utf8').trim().split('\n');
    const columns = (header ?? '').split(',');
    const positions = columns.indexOf('tiny/positions');
    expect(positions).toBeGreaterThan(0);
    expect(rows.map((row) => row.split(',')[positions])).toEqual(['24', '24']);
    // Its gradient steps moved the network away from where it started.
    const start = readCheckpoint(join(paths.checkpoints, 'iter-000001.json')).weights;
    expect(readCheckpoint(paths.latest).weights).not.toEqual(start);
    expect(readPolicyFile(result.policyPath).file.source?.iteration).toBe(2);
  });

  it('resumes exactly, as every algorithm that draws from the run’s generator does', async () => {
    const runsDir = mkdtempSync(join(tmpdir(), 'ayoayo-tiny-'));
    await train(tinyRun(runsDir, 'whole'), { resume: false, log: () => {} });
    await train(tinyRun(runsDir, 'cut'), { resume: false, stopAfter: 1, log: () => {} });
    await train([{ runsDir, name: 'cut' }], { resume: true, log: () => {} });
    const end = (name: string) => readCheckpoint(runPaths({ runsDir, name }).latest);
    expect(end('cut').weights).toEqual(end('whole').weights);
    expect(end('cut').rngState).toEqual(end('whole').rngState);
  });

  it('plays no shards: the queue refuses it, naming the algorithms whose self-play has them', async () => {
    expect(noShardsMessage('tiny')).toBe(
      "only expert iteration's self-play is played in shards that other machines can take (the queue); tiny's games are played in one process: train it without --queue, or spread whole runs with sweep --queue",
    );
    const runsDir = mkdtempSync(join(tmpdir(), 'ayoayo-tiny-'));
    const shardRunner = () => {
      throw new Error('no shard is played');
    };
    await expect(
      train(tinyRun(runsDir, 'queued'), { resume: false, log: () => {}, shardRunner }),
    ).rejects.toThrow(new TrainConfigError(noShardsMessage('tiny')));
  });
});
