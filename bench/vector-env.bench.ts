import { type ObservationConfigInput, VectorEnv } from '../env/gym/index.ts';
import { core, Random } from '../env/index.ts';
import type { Emit } from './types.ts';

const NUM_ENVS = 256;

const CONFIGS: { encoding: string; observation: ObservationConfigInput }[] = [
  { encoding: 'counts', observation: { encoding: 'counts', lookahead: false } },
  { encoding: 'onehot', observation: { encoding: 'onehot', lookahead: false } },
  { encoding: 'counts+lookahead', observation: { encoding: 'counts', lookahead: true } },
];

/**
 * Steps per second of CPU time (one step = one ply in one env, observation and
 * mask included) of a VectorEnv of 256 with uniformly random legal actions,
 * stepped for `seconds` of wall time. CPU time rather than wall time, so that
 * other work on a shared machine counts less.
 */
export function measure(
  env: Pick<VectorEnv, 'numEnvs' | 'masks' | 'step'>,
  rng: Random,
  actions: Int32Array,
  seconds: number,
): number {
  const n = env.numEnvs;
  const masks = env.masks;
  let steps = 0;
  const cpu = process.cpuUsage();
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
  const used = process.cpuUsage(cpu);
  return steps / ((used.user + used.system) / 1e6);
}

export async function run(emit: Emit): Promise<void> {
  const runs = CONFIGS.map(({ encoding, observation }) => ({
    encoding,
    env: new VectorEnv({ numEnvs: NUM_ENVS, seed: 1, observation }),
    rng: Random.fromSeed(1),
    actions: new Int32Array(NUM_ENVS),
    samples: [] as number[],
  }));
  // Warm every configuration up before timing any, then interleave three
  // rounds and keep the median, so JIT order and machine noise matter less.
  for (const r of runs) measure(r.env, r.rng, r.actions, 1);
  for (let round = 0; round < 3; round++) {
    for (const r of runs) r.samples.push(measure(r.env, r.rng, r.actions, 1.5));
  }
  for (const r of runs) {
    const median = [...r.samples].sort((a, b) => a - b)[1] as number;
    emit({
      name: 'vector-env-steps',
      encoding: r.encoding,
      numEnvs: NUM_ENVS,
      obsSize: r.env.obsSize,
      stepsPerSec: Math.round(median),
      clock: 'cpu',
    });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await run((m) => console.log(JSON.stringify(m)));
}
