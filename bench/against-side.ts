// One measurement for bench/against.ts, in a process of its own (as `npm run
// bench` runs): the engine loops or the vector environment of the env/ and
// agents/ under ROOT, warmed up for a second, then timed. Prints {perSec, pliesPerSec}.
//
//   npx tsx bench/against-side.ts ROOT reject|expand|vectorEnv SECONDS
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { playoutLoops } from './playout-loops.ts';
import { measure } from './vector-env.bench.ts';

export type Measured = 'reject' | 'expand' | 'vectorEnv';
export interface Rate {
  readonly perSec: number;
  readonly pliesPerSec: number;
}

type Playout = (...args: unknown[]) => number;

async function timeSide(root: string, what: Measured, seconds: number): Promise<Rate> {
  const url = (path: string): string => pathToFileURL(join(root, path)).href;
  const { core, Random } = (await import(url('env/index.ts'))) as typeof import('../env/index.ts');
  if (what === 'vectorEnv') {
    const { VectorEnv } = (await import(
      url('env/gym/index.ts')
    )) as typeof import('../env/gym/index.ts');
    const envs = 256;
    const env = new VectorEnv({ numEnvs: envs, seed: 1, observation: { lookahead: true } });
    const actions = new Int32Array(envs);
    const rng = Random.fromSeed(1);
    measure(env, rng, actions, 1); // warm-up for the JIT
    const perSec = measure(env, rng, actions, seconds);
    return { perSec, pliesPerSec: perSec };
  }
  const { randomPlayout } = (await import(url('agents/playout.ts'))) as { randomPlayout: Playout };
  const loops = playoutLoops(core);
  const rng = Random.fromSeed(1);
  const scratch = new Uint8Array(core.STATE_SIZE);
  const children = new Uint8Array(core.ACTIONS * core.STATE_SIZE);
  const status = new Uint8Array(core.ACTIONS);
  // The earlier playout took a scratch buffer (state, scratch, rng, captureSeedStays).
  const play =
    what === 'expand'
      ? (state: Uint8Array) => loops.expandPlayout(state, children, status, rng, false)
      : randomPlayout.length === 4
        ? (state: Uint8Array) => randomPlayout(state, scratch, rng, false)
        : (state: Uint8Array) => randomPlayout(state, rng, false);
  loops.timeGames(play, 1); // warm-up for the JIT
  const run = loops.timeGames(play, seconds);
  const cpuSec = run.cpuMs / 1000;
  return { perSec: run.games / cpuSec, pliesPerSec: run.plies / cpuSec };
}

if (import.meta.url === pathToFileURL(process.argv[1] as string).href) {
  const [root, what, seconds] = process.argv.slice(2);
  const rate = await timeSide(root as string, what as Measured, Number(seconds));
  console.log(JSON.stringify(rate));
}
