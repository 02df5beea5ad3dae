import { randomPlayout } from '../agents/playout.ts';
import { core, Random } from '../env/index.ts';

const { ACTIONS, POPCOUNT, STATE_SIZE, expand, finalScores, nthAction, setInitial } = core;

// The random playout moved to agents/playout.ts (MCTS uses it); re-exported here.
export { randomPlayout };

/**
 * One complete random game the way search walks the tree: each ply generates
 * every legal move at once with `core.expand` (all six children played into a
 * reused buffer) and continues from a uniformly chosen child. Returns the plies.
 */
export function expandPlayout(
  state: Uint8Array,
  children: Uint8Array,
  status: Uint8Array,
  rng: Random,
  captureSeedStays: boolean,
): number {
  let plies = 0;
  for (;;) {
    const mask = expand(state, captureSeedStays, children, status);
    if (mask === 0) return plies;
    const action = nthAction(mask, rng.int(POPCOUNT[mask] as number));
    state.set(children.subarray(action * STATE_SIZE, (action + 1) * STATE_SIZE));
    plies++;
  }
}

export async function run(emit: (m: Record<string, unknown>) => void): Promise<void> {
  const rng = Random.fromSeed(1);
  const state = new Uint8Array(STATE_SIZE);
  const scratch = new Uint8Array(STATE_SIZE);
  const children = new Uint8Array(ACTIONS * STATE_SIZE);
  const status = new Uint8Array(ACTIONS);
  const scores = [0, 0];
  const measure = (
    playout: () => number,
    seconds: number,
  ): { games: number; plies: number; elapsed: number } => {
    let games = 0;
    let plies = 0;
    const start = performance.now();
    let elapsed = 0;
    while (elapsed < seconds * 1000) {
      for (let i = 0; i < 1000; i++) {
        setInitial(state);
        plies += playout();
        finalScores(state, 0, false, scores);
        games++;
      }
      elapsed = performance.now() - start;
    }
    return { games, plies, elapsed };
  };
  const report = (name: string, playout: () => number): void => {
    measure(playout, 1); // warm-up for the JIT
    const { games, plies, elapsed } = measure(playout, 5);
    emit({
      name,
      playoutsPerSec: Math.round(games / (elapsed / 1000)),
      pliesPerSec: Math.round(plies / (elapsed / 1000)),
      meanPlies: Number((plies / games).toFixed(1)),
    });
  };
  report('engine-playouts', () => randomPlayout(state, scratch, rng, false));
  report('engine-playouts-expand', () => expandPlayout(state, children, status, rng, false));
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await run((m) => console.log(JSON.stringify(m)));
}
