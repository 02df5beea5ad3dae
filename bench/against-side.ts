// One measurement for bench/against.ts, in a process of its own (as `npm run
// bench` runs): of the source tree under ROOT, warmed up, then timed. Prints
// {perSec, pliesPerSec, ...}.
//
//   npx tsx bench/against-side.ts ROOT WHAT SECONDS [LAYER]
//
// LAYER (JSON): settings over a preset's, for self-play presets (the settings
// an older side ran with, say).
// WHAT: reject | expand (the engine's playout loops, per second of CPU time),
// vectorEnv (steps with lookahead, per second of CPU time), quick | long |
// quick-ppo | long-ppo (a preset's self-play, bench/train.bench.ts: plies per
// second of wall time, and per second of the process's CPU time; the update's samples per
// second), az (PUCT
// simulations per second of `az:models/pretrained,t=50ms`).
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { DEFAULT_RULE_CODE } from '../env/rule-code.ts';
import { midgames } from './agents.bench.ts';
import { type SearchModules, simulationsPerSec } from './network-search.bench.ts';
import { playoutLoops } from './playout-loops.ts';
import { measureSelfPlay, TRAIN_PRESETS, type TrainModules } from './train.bench.ts';
import { measure } from './vector-env.bench.ts';

export const MEASURED = ['reject', 'expand', 'vectorEnv', ...TRAIN_PRESETS, 'az'] as const;
export type Measured = (typeof MEASURED)[number];
export interface Rate {
  /** The headline rate: games (engine loops), steps, plies (self-play) or simulations a second. */
  readonly perSec: number;
  readonly pliesPerSec?: number;
  /** Self-play: plies per second of the process's CPU time, worker threads included. */
  readonly cpuPerSec?: number;
  /** What ran the network (self-play). */
  readonly inference?: string;
  /** Self-play presets: the update's samples per second (epochs counted). */
  readonly updatePerSec?: number;
  /** Self-play presets: what computed the update's gradients. */
  readonly gradients?: string;
  /** Self-play presets: seconds an iteration, self-play and update (wall time). */
  readonly iterationSeconds?: number;
}

type Playout = (...args: unknown[]) => number;
type Env = typeof import('../env/index.ts');

async function timeSide(
  root: string,
  what: Measured,
  seconds: number,
  layer: Readonly<Record<string, unknown>>,
): Promise<Rate> {
  const url = (path: string): string => pathToFileURL(join(root, path)).href;
  const env = (await import(url('env/index.ts'))) as Env;
  const { core, Random } = env;
  if (what === 'vectorEnv') {
    const { VectorEnv } = (await import(
      url('env/gym/index.ts')
    )) as typeof import('../env/gym/index.ts');
    const envs = 256;
    const vector = new VectorEnv({ numEnvs: envs, seed: 1, observation: { lookahead: true } });
    const actions = new Int32Array(envs);
    const rng = Random.fromSeed(1);
    measure(vector, rng, actions, 1); // warm-up for the JIT
    const perSec = measure(vector, rng, actions, seconds);
    return { perSec, pliesPerSec: perSec };
  }
  if (what === 'az') {
    // Where the network kinds are declared: agents/network/ now, models/ in older code.
    const declared = ['agents/network/kinds.ts', 'models/policy-kind.ts'].find((path) =>
      existsSync(join(root, path)),
    );
    const kinds = (declared === undefined ? {} : await import(url(declared))) as {
      registerNetworkKinds?: () => void;
    };
    kinds.registerNetworkKinds?.(); // registers az: (the side measured may predate the function)
    const { createAgent } = (await import(url('agents/spec.ts'))) as SearchModules;
    const m: SearchModules = {
      createAgent,
      legalActions: env.legalActions,
      Random,
      rules: env.DEFAULT_RULES,
    };
    const rate = await simulationsPerSec(m, 'az:models/pretrained,t=50ms', midgames(20, env));
    return { perSec: rate.simulationsPerSec };
  }
  if (what !== 'reject' && what !== 'expand') {
    // Code from before the registry held no algorithm of its own registers them here.
    if (existsSync(join(root, 'train/builtin-algorithms.ts'))) {
      const builtins = (await import(url('train/builtin-algorithms.ts'))) as {
        registerBuiltinAlgorithms: () => void;
      };
      builtins.registerBuiltinAlgorithms();
    }
    const m: TrainModules = {
      ...((await import(url('models/backend.ts'))) as Pick<TrainModules, 'loadBackend'>),
      ...((await import(url('train/config/build.ts'))) as Pick<TrainModules, 'buildConfig'>),
      ...((await import(url('train/config/presets.ts'))) as Pick<TrainModules, 'PRESETS'>),
      ...((await import(url('train/learner.ts'))) as Pick<
        TrainModules,
        'buildLearner' | 'disposeLearner'
      >),
      Random,
    };
    const row = await measureSelfPlay(m, what, undefined, layer);
    return {
      perSec: row.selfPlayPliesPerSec as number,
      cpuPerSec: row.selfPlayCpuPliesPerSec as number,
      inference: row.inference as string,
      updatePerSec: row.updateSamplesPerSec as number,
      gradients: (row.gradients as string | undefined) ?? 'tfjs',
      iterationSeconds: row.iterationSeconds as number,
    };
  }
  const { randomPlayout } = (await import(url('agents/playout.ts'))) as { randomPlayout: Playout };
  const loops = playoutLoops(core);
  const rng = Random.fromSeed(1);
  const scratch = new Uint8Array(core.STATE_SIZE);
  const children = new Uint8Array(core.ACTIONS * core.STATE_SIZE);
  const status = new Uint8Array(core.ACTIONS);
  // The default rules: their code, 0, which an engine from before rule codes
  // (taking a boolean for the capture rule) reads as `false`, its default too.
  const code = DEFAULT_RULE_CODE;
  // The earlier playout took a scratch buffer (state, scratch, rng, rules).
  const play =
    what === 'expand'
      ? (state: Uint8Array) => loops.expandPlayout(state, children, status, rng, code)
      : randomPlayout.length === 4
        ? (state: Uint8Array) => randomPlayout(state, scratch, rng, code)
        : (state: Uint8Array) => randomPlayout(state, rng, code);
  loops.timeGames(play, 1); // warm-up for the JIT
  const run = loops.timeGames(play, seconds);
  const cpuSec = run.cpuMs / 1000;
  return { perSec: run.games / cpuSec, pliesPerSec: run.plies / cpuSec };
}

if (import.meta.url === pathToFileURL(process.argv[1] as string).href) {
  const [root, what, seconds, layer] = process.argv.slice(2);
  if (!MEASURED.includes(what as Measured))
    throw new Error(`against-side: WHAT must be one of ${MEASURED.join(', ')}, not ${what}`);
  const settings = layer === undefined ? {} : (JSON.parse(layer) as Record<string, unknown>);
  const rate = await timeSide(root as string, what as Measured, Number(seconds), settings);
  console.log(JSON.stringify(rate));
}
