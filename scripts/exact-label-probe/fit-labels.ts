// The supervised probe's data and training, shared by train-policy.ts and deeper-lookahead.ts:
// positions with exact labels (make-positions.ts), the policy trained towards the value-keeping
// moves (uniform over them), the value towards the proven result, Adam 1e-3 decaying linearly,
// minibatches of 512.
import { readFileSync } from 'node:fs';
import type { ObservationEncoder } from '../../env/gym/observation.ts';
import { Random } from '../../env/index.ts';
import type { Tf } from '../../models/backend.ts';
import { createPolicyValueModel } from '../../models/policy-value-model.ts';
import { ReplayBuffer } from '../../train/expert-iteration/replay-buffer.ts';
import { SearchTargetUpdater } from '../../train/expert-iteration/search-update.ts';

/** One labelled position: the engine state, its proven value, the mask of value-keeping moves. */
export interface LabelRow {
  readonly s: number[];
  readonly v: number;
  readonly k: number;
}

export function readLabelRows(files: readonly string[]): LabelRow[] {
  return files.flatMap((f) =>
    readFileSync(f, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as LabelRow),
  );
}

/**
 * A network of `hidden` ReLU layers over `encoder`'s inputs trained on `rows` for `epochs`;
 * `onEpoch` hears each epoch's policy loss.
 */
export async function fitLabels(
  tf: Tf,
  encoder: ObservationEncoder,
  rows: readonly LabelRow[],
  hidden: readonly number[],
  epochs: number,
  onEpoch: (epoch: number, policyLoss: number) => void = () => {},
) {
  const buffer = new ReplayBuffer(rows.length, encoder);
  buffer.startIteration();
  const policy = new Float32Array(6);
  for (const row of rows) {
    let kept = 0;
    for (let a = 0; a < 6; a++) kept += (row.k >> a) & 1;
    for (let a = 0; a < 6; a++) policy[a] = (row.k >> a) & 1 ? 1 / kept : 0;
    buffer.add(Uint8Array.from(row.s), policy, 0, row.v);
  }
  const network = { hidden: [...hidden], activation: 'relu' as const };
  const model = createPolicyValueModel(tf, encoder.size, network, 1);
  const optimizer = tf.train.adam(1e-3);
  const updater = new SearchTargetUpdater(
    tf,
    model,
    optimizer,
    { epochs: 1, minibatchSize: 512, valueCoef: 1, maxGradNorm: 0.5 },
    encoder.size,
  );
  const rng = Random.fromSeed(5);
  for (let epoch = 0; epoch < epochs; epoch++) {
    // As the training loop sets it (tfjs keeps the field protected).
    (optimizer as unknown as { learningRate: number }).learningRate =
      1e-3 * (1 - epoch / epochs) + 5e-5;
    onEpoch(epoch + 1, (await updater.update(buffer, rng)).policyLoss);
  }
  return { model, network };
}
