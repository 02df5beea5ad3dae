// Seconds an iteration (self-play and update) of a preset, with the code of
// a checkout: the child process of bench/train-old-new.bench.ts, which runs it
// for two checkouts in turn.
//   npx tsx bench/iteration-seconds.ts TREE PRESET WORKERS ITERATIONS [LAYER_JSON]
// prints one JSON line: seconds an iteration and an update (means over the
// measured iterations, after two), and a hash of the network it ends with.
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

type Modules = [
  typeof import('../env/random.ts'),
  typeof import('../models/backend.ts'),
  typeof import('../train/config/build.ts'),
  typeof import('../train/config/presets.ts'),
  typeof import('../train/learner.ts'),
];

const [tree, preset, workers, iterations, layer] = process.argv.slice(2);
if (
  tree === undefined ||
  preset === undefined ||
  workers === undefined ||
  iterations === undefined
) {
  process.stderr.write(
    'usage: tsx bench/iteration-seconds.ts TREE PRESET WORKERS ITERATIONS [LAYER_JSON]\n',
  );
  process.exit(2);
}
const from = (file: string) => import(pathToFileURL(resolve(tree, file)).href);
const [
  { Random },
  { loadBackend },
  { buildConfig },
  { PRESETS },
  { buildLearner, disposeLearner },
] = (await Promise.all([
  from('env/random.ts'),
  from('models/backend.ts'),
  from('train/config/build.ts'),
  from('train/config/presets.ts'),
  from('train/learner.ts'),
])) as Modules;

const WARM_UP = 2;
const measured = Number(iterations);
const chosen = PRESETS[preset as keyof typeof PRESETS];
if (chosen === undefined) throw new Error(`no preset ${preset} in ${tree}`);
const { tf } = await loadBackend('auto');
const config = buildConfig([chosen, { seed: 1 }, layer === undefined ? {} : JSON.parse(layer)]);
const learner = await buildLearner(tf, config, { workers: Number(workers) });
const rng = Random.fromSeed(1);
learner.algorithm.reset(1, rng);
let wall = 0;
let update = 0;
try {
  for (let i = 0; i < WARM_UP + measured; i++) {
    const start = performance.now();
    await learner.algorithm.collect(rng, i + 1);
    const stats = await learner.algorithm.update(rng);
    if (i < WARM_UP) continue;
    wall += (performance.now() - start) / 1000;
    update += stats.seconds;
  }
  const hash = createHash('sha256');
  for (const w of learner.model.getWeights()) hash.update(w.dataSync() as Float32Array);
  process.stdout.write(
    `${JSON.stringify({ iterationSeconds: wall / measured, updateSeconds: update / measured, network: hash.digest('hex').slice(0, 16) })}\n`,
  );
} finally {
  await disposeLearner(learner);
}
