// The supervised probe's training (docs/experiments/2026-12-02-supervised-exact-label-probe.md),
// as in fit-labels.ts; writes a policy file for `ayoayo accuracy --agents policy:OUT`:
//   npx tsx scripts/exact-label-probe/train-policy.ts [--no-lookahead] OUT.json HIDDEN EPOCHS POSITIONS.jsonl...
// (the probe: HIDDEN 128,128 and 256,256,256, 20 epochs; --no-lookahead: the 14 counts alone)
import { writeFileSync } from 'node:fs';
import { ObservationEncoder } from '../../env/gym/observation.ts';
import { DEFAULT_RULES } from '../../env/index.ts';
import { loadBackend } from '../../models/backend.ts';
import { makePolicyFile } from '../../models/policy-file.ts';
import { extractMlpWeights } from '../../models/policy-value-model.ts';
import { fitLabels, readLabelRows } from './fit-labels.ts';

const args = process.argv.slice(2);
const lookahead = !args.includes('--no-lookahead');
const [out, hiddenArg, epochsArg, ...files] = args.filter((arg) => arg !== '--no-lookahead');
if (out === undefined || hiddenArg === undefined || epochsArg === undefined || files.length === 0) {
  console.error(
    'usage: tsx scripts/exact-label-probe/train-policy.ts [--no-lookahead] OUT.json HIDDEN EPOCHS POSITIONS.jsonl...',
  );
  process.exit(1);
}
const hidden = hiddenArg.split(',').map(Number);
const epochs = Number(epochsArg);
const observation = { encoding: 'counts', lookahead, lookaheadEncoding: 'counts' } as const;
const rows = readLabelRows(files);
const { tf } = await loadBackend('auto');
const { model, network } = await fitLabels(
  tf,
  new ObservationEncoder(observation, DEFAULT_RULES),
  rows,
  hidden,
  epochs,
  (epoch, loss) => console.error(`epoch ${epoch}: policy loss ${loss.toFixed(3)}`),
);
const file = makePolicyFile(extractMlpWeights(model, network), {
  observation,
  rules: DEFAULT_RULES,
  source: { run: 'exact-label-probe', iteration: epochs },
});
writeFileSync(out, JSON.stringify(file));
console.error(`${rows.length} positions, wrote ${out}`);
