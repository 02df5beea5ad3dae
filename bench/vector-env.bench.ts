import { type ObservationConfigInput, VectorEnv } from '../env/gym/index.ts';
import { core, Random } from '../env/index.ts';

const NUM_ENVS = 256;

const CONFIGS: { label: string; observation: ObservationConfigInput }[] = [
  { label: 'counts', observation: { encoding: 'counts', lookahead: false } },
  { label: 'onehot', observation: { encoding: 'onehot', lookahead: false } },
  { label: 'counts+lookahead', observation: { encoding: 'counts', lookahead: true } },
];

/** Steps of a VectorEnv of 256 with uniformly random legal actions, per second of wall time. */
function measure(env: VectorEnv, rng: Random, actions: Int32Array, seconds: number): number {
  const n = env.numEnvs;
  const masks = env.masks;
  let steps = 0;
  const start = performance.now();
  let elapsed = 0;
  while (elapsed < seconds * 1000) {
    for (let round = 0; round < 20; round++) {
      for (let i = 0; i < n; i++) {
        let bits = 0;
        for (let a = 0; a < 6; a++) bits |= (masks[i * 6 + a] as number) << a;
        actions[i] = core.nthAction(bits, rng.int(core.POPCOUNT[bits] as number));
      }
      env.step(actions);
      steps += n;
    }
    elapsed = performance.now() - start;
  }
  return steps / (elapsed / 1000);
}

export async function run(emit: (m: Record<string, unknown>) => void): Promise<void> {
  for (const { label, observation } of CONFIGS) {
    const env = new VectorEnv({ numEnvs: NUM_ENVS, seed: 1, observation });
    const rng = Random.fromSeed(1);
    const actions = new Int32Array(NUM_ENVS);
    measure(env, rng, actions, 1); // warm-up for the JIT
    const stepsPerSec = measure(env, rng, actions, 4);
    emit({
      name: 'vector-env-steps',
      encoding: label,
      numEnvs: NUM_ENVS,
      obsSize: env.obsSize,
      stepsPerSec: Math.round(stepsPerSec),
    });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await run((m) => console.log(JSON.stringify(m)));
}
