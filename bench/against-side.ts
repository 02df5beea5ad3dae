// One side of bench/against.ts: the engine loops and the vector environment of
// the env/ and agents/ found under a root folder.
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { PlayoutLoop } from './native-playouts.ts';

/** The parts of env/ and agents/ both sides have. */
export interface Side {
  readonly name: string;
  readonly time: Record<PlayoutLoop | 'vectorEnv', (seconds: number) => Rate>;
}
export interface Rate {
  readonly perSec: number;
  readonly pliesPerSec: number;
}

type Playout = (...args: unknown[]) => number;

export async function loadSide(name: string, root: string): Promise<Side> {
  const url = (path: string): string => pathToFileURL(join(root, path)).href;
  const { core, Random } = (await import(url('env/index.ts'))) as typeof import('../env/index.ts');
  const { VectorEnv } = (await import(
    url('env/gym/index.ts')
  )) as typeof import('../env/gym/index.ts');
  const { randomPlayout } = (await import(url('agents/playout.ts'))) as { randomPlayout: Playout };
  // A copy of the loops and of the stepping per side (this module is loaded once per side).
  const tag = encodeURIComponent(name);
  const { playoutLoops } = (await import(
    `./playout-loops.ts?side=${tag}`
  )) as typeof import('./playout-loops.ts');
  const { measure } = (await import(
    `./vector-env.bench.ts?side=${tag}`
  )) as typeof import('./vector-env.bench.ts');
  const loops = playoutLoops(core);
  const rng = Random.fromSeed(1);
  const scratch = new Uint8Array(core.STATE_SIZE);
  const children = new Uint8Array(core.ACTIONS * core.STATE_SIZE);
  const status = new Uint8Array(core.ACTIONS);
  // The earlier playout took a scratch buffer (state, scratch, rng, captureSeedStays).
  const reject =
    randomPlayout.length === 4
      ? (state: Uint8Array) => randomPlayout(state, scratch, rng, false)
      : (state: Uint8Array) => randomPlayout(state, rng, false);
  const expand = (state: Uint8Array) => loops.expandPlayout(state, children, status, rng, false);
  const games =
    (play: (state: Uint8Array) => number) =>
    (s: number): Rate => {
      const run = loops.timeGames(play, s);
      const cpuSec = run.cpuMs / 1000;
      return { perSec: run.games / cpuSec, pliesPerSec: run.plies / cpuSec };
    };
  const envs = 256;
  const env = new VectorEnv({ numEnvs: envs, seed: 1, observation: { lookahead: true } });
  const actions = new Int32Array(envs);
  const envRng = Random.fromSeed(1);
  const vectorEnv = (s: number): Rate => {
    const perSec = measure(env, envRng, actions, s);
    return { perSec, pliesPerSec: perSec };
  };
  return { name, time: { reject: games(reject), expand: games(expand), vectorEnv } };
}
