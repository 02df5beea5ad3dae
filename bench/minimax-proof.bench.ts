import { MinimaxSearch, PROVEN } from '../agents/minimax-search.ts';
import { applyAction, DEFAULT_RULES, legalActions, outcome, Random } from '../env/index.ts';
import { DEFAULT_OPENING_PLIES, openingFor } from '../eval/openings.ts';
import type { Emit } from './types.ts';

const OPENINGS = 40;
const MOVE_MS = 50;
const SEED = 7000;

/**
 * How soon `minimax:t=50ms` knows a game's exact result: it plays itself from
 * the tournament's default openings, as the agent does (one table kept through
 * the game, ties broken at random), and each searched move records whether the
 * search proved the game won or lost under best play (a proven draw scores 0,
 * like an even store difference, so it is not counted). Once it has proved a
 * win it cannot lose it, and a proven loss is lost to best play anyway, so an
 * opponent gains only on its moves before that (README, "Search with a
 * network": what this means for beating it at equal time).
 */
export async function run(emit: Emit): Promise<void> {
  const rules = DEFAULT_RULES;
  const firstProven: number[] = [];
  const depths: number[] = [];
  let searched = 0;
  let proven = 0;
  let plies = 0;
  for (let i = 0; i < OPENINGS; i++) {
    const search = new MinimaxSearch({ rules });
    const rng = Random.fromSeed(`${SEED}|proof|${i}`);
    let position = openingFor(SEED, i, DEFAULT_OPENING_PLIES, rules).position;
    let ply = 0;
    let first = Number.POSITIVE_INFINITY;
    while (outcome(position, rules) === null) {
      const legal = legalActions(position, rules);
      let action = legal[0] as number;
      if (legal.length > 1) {
        const result = search.search(position.stateView, { timeMs: MOVE_MS });
        searched++;
        if (Math.abs(result.value) > PROVEN) {
          proven++;
          first = Math.min(first, ply);
        } else {
          depths.push(result.depth);
        }
        action = rng.pick(result.bestActions);
      }
      position = applyAction(position, action, rules);
      ply++;
    }
    plies += ply;
    firstProven.push(first);
  }
  const median = (xs: number[]): number => [...xs].sort((x, y) => x - y)[xs.length >> 1] as number;
  emit({
    name: 'minimax-50ms-proof',
    openings: OPENINGS,
    seed: SEED,
    meanPliesAfterOpening: Number((plies / OPENINGS).toFixed(1)),
    searchedMoves: searched,
    provenShare: Number((proven / searched).toFixed(3)),
    medianFirstProvenPly: median(firstProven),
    neverProven: firstProven.filter((p) => p === Number.POSITIVE_INFINITY).length,
    medianDepthUnproven: median(depths),
  });
}
