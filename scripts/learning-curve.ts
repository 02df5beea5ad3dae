// Redraws a finished run's learning curve from its files, without training:
//   npx tsx scripts/learning-curve.ts runs/NAME [OUT_BASE]
// (models/pretrained: npx tsx scripts/learning-curve.ts models/pretrained)
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { curveFromMetrics, writeLearningCurve } from '../train/report/learning-curve.ts';

const [dir, outBase] = process.argv.slice(2);
if (dir === undefined) {
  console.error('usage: tsx scripts/learning-curve.ts RUN_DIR [OUT_BASE]');
  process.exit(1);
}
const config = JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8'));
const points = curveFromMetrics(readFileSync(join(dir, 'metrics.csv'), 'utf8'), config);
const finalPath = join(dir, 'final-evaluation.json');
const final = existsSync(finalPath)
  ? {
      iteration: Math.max(...points.map((p) => p.iteration)),
      rows: JSON.parse(readFileSync(finalPath, 'utf8')).rows,
    }
  : null;
const base = outBase ?? join(dir, 'learning-curve');
await writeLearningCurve(
  base,
  points,
  `${config.name}: score of the policy alone against baselines`,
  final,
);
console.log(`wrote ${base}.svg and ${base}.png`);
