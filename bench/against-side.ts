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

type Core = typeof import('../env/core.ts');
type Playout = (...args: unknown[]) => number;

export async function loadSide(name: string, root: string): Promise<Side> {
  const url = (path: string): string => pathToFileURL(join(root, path)).href;
  const { core, Random } = (await import(url('env/index.ts'))) as typeof import('../env/index.ts');
  const { VectorEnv } = (await import(
    url('env/gym/index.ts')
  )) as typeof import('../env/gym/index.ts');
  const { randomPlayout } = (await import(url('agents/playout.ts'))) as { randomPlayout: Playout };
  const c: Core = core;
  const rng = Random.fromSeed(1);
  const state = new Uint8Array(c.STATE_SIZE);
  const scratch = new Uint8Array(c.STATE_SIZE);
  const children = new Uint8Array(c.ACTIONS * c.STATE_SIZE);
  const status = new Uint8Array(c.ACTIONS);
  const scores = [0, 0];
  // The earlier playout took a scratch buffer (state, scratch, rng, captureSeedStays).
  const reject =
    randomPlayout.length === 4
      ? () => randomPlayout(state, scratch, rng, false)
      : () => randomPlayout(state, rng, false);
  const expandLoop = (): number => {
    let plies = 0;
    for (;;) {
      const mask = c.expand(state, false, children, status);
      if (mask === 0) return plies;
      const at = c.nthAction(mask, rng.int(c.POPCOUNT[mask] as number)) * c.STATE_SIZE;
      for (let k = 0; k < c.STATE_SIZE; k++) state[k] = children[at + k] as number;
      plies++;
    }
  };
  const games =
    (play: () => number) =>
    (s: number): Rate => {
      let count = 0;
      let plies = 0;
      const cpu = process.cpuUsage();
      const start = performance.now();
      while (performance.now() - start < s * 1000) {
        for (let i = 0; i < 500; i++) {
          c.setInitial(state);
          plies += play();
          c.finalScores(state, 0, false, scores);
          count++;
        }
      }
      const used = process.cpuUsage(cpu);
      const cpuSec = (used.user + used.system) / 1e6;
      return { perSec: count / cpuSec, pliesPerSec: plies / cpuSec };
    };
  const envs = 256;
  const env = new VectorEnv({ numEnvs: envs, seed: 1, observation: { lookahead: true } });
  const actions = new Int32Array(envs);
  const envRng = Random.fromSeed(1);
  const vectorEnv = (s: number): Rate => {
    let steps = 0;
    const cpu = process.cpuUsage();
    const start = performance.now();
    while (performance.now() - start < s * 1000) {
      for (let round = 0; round < 10; round++) {
        for (let i = 0; i < envs; i++) {
          let bits = 0;
          for (let a = 0; a < 6; a++) bits |= (env.masks[i * 6 + a] as number) << a;
          actions[i] = c.nthAction(bits, envRng.int(c.POPCOUNT[bits] as number));
        }
        env.step(actions);
        steps += envs;
      }
    }
    const used = process.cpuUsage(cpu);
    const cpuSec = (used.user + used.system) / 1e6;
    return { perSec: steps / cpuSec, pliesPerSec: steps / cpuSec };
  };
  return { name, time: { reject: games(reject), expand: games(expandLoop), vectorEnv } };
}
