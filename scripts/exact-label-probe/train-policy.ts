// The supervised probe's training (docs/results.md, "Exact targets from the solver"): the policy
// towards the value-keeping moves (uniform over them), the value towards the proven result, Adam
// 1e-3 decaying, minibatches of 512; writes a policy file for `ayoayo accuracy --agents policy:OUT`:
//   npx tsx scripts/exact-label-probe/train-policy.ts [--no-lookahead] OUT.json HIDDEN EPOCHS POSITIONS.jsonl...
// (the probe: HIDDEN 128,128 and 256,256,256, 20 epochs; --no-lookahead: the 14 counts alone)
import { readFileSync, writeFileSync } from 'node:fs';
import { ObservationEncoder, observationSize } from '../../env/gym/observation.ts';
import { DEFAULT_RULES, Random } from '../../env/index.ts';
import { loadBackend } from '../../models/backend.ts';
import { makePolicyFile } from '../../models/policy-file.ts';
import { createPolicyValueModel, extractMlpWeights } from '../../models/policy-value-model.ts';
import { ReplayBuffer } from '../../train/expert-iteration/replay-buffer.ts';
import { SearchTargetUpdater } from '../../train/expert-iteration/search-update.ts';

const args = process.argv.slice(2);
const lookahead = !args.includes('--no-lookahead');
const [out, hiddenArg, epochsArg, ...files] = args.filter((arg) => arg !== '--no-lookahead');
if (out === undefined || hiddenArg === undefined || epochsArg === undefined || files.length === 0) {
  console.error(
    'usage: tsx scripts/exact-label-probe/train-policy.ts [--no-lookahead] OUT.json HIDDEN EPOCHS POSITIONS.jsonl...',
  );
  process.exit(1);
}
interface Row {
  readonly s: number[];
  readonly v: number;
  readonly k: number;
}
const hidden = hiddenArg.split(',').map(Number);
const epochs = Number(epochsArg);
const observation = { encoding: 'counts', lookahead } as const;
const rows = files.flatMap((f) =>
  readFileSync(f, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Row),
);
const { tf } = await loadBackend('auto');
const obsSize = observationSize(observation);
const buffer = new ReplayBuffer(rows.length, new ObservationEncoder(observation, DEFAULT_RULES));
buffer.startIteration();
const policy = new Float32Array(6);
for (const row of rows) {
  let kept = 0;
  for (let a = 0; a < 6; a++) kept += (row.k >> a) & 1;
  for (let a = 0; a < 6; a++) policy[a] = (row.k >> a) & 1 ? 1 / kept : 0;
  buffer.add(Uint8Array.from(row.s), policy, 0, row.v);
}
const network = { hidden, activation: 'relu' as const };
const model = createPolicyValueModel(tf, obsSize, network, 1);
const optimizer = tf.train.adam(1e-3);
const updater = new SearchTargetUpdater(
  tf,
  model,
  optimizer,
  { epochs: 1, minibatchSize: 512, valueCoef: 1, maxGradNorm: 0.5 },
  obsSize,
);
const rng = Random.fromSeed(5);
for (let epoch = 0; epoch < epochs; epoch++) {
  // As the training loop sets it (tfjs keeps the field protected).
  (optimizer as unknown as { learningRate: number }).learningRate =
    1e-3 * (1 - epoch / epochs) + 5e-5;
  const stats = updater.update(buffer, rng);
  console.error(`epoch ${epoch + 1}: policy loss ${stats.policyLoss.toFixed(3)}`);
}
const file = makePolicyFile(extractMlpWeights(model, network), {
  observation,
  rules: DEFAULT_RULES,
  source: { run: 'exact-label-probe', iteration: epochs },
});
writeFileSync(out, JSON.stringify(file));
console.error(`${rows.length} positions, wrote ${out}`);
