import { MinimaxAgent } from '../agents/minimax.ts';
import { PROVEN, type SearchResult } from '../agents/minimax-search.ts';
import { applyAction, DEFAULT_RULES, legalActions, outcome, Random } from '../env/index.ts';
import { DEFAULT_OPENING_PLIES, openingFor } from '../eval/openings.ts';
import { median } from './median.ts';
import type { Emit } from './types.ts';

const OPENINGS = 40;
const MOVE_MS = 50;
const SEED = 7000;

/**
 * How soon `minimax:t=50ms` knows a game's exact result: the agent plays itself
 * from the tournament's default openings, and each searched move records whether the
 * search proved the game won or lost under best play (a proven draw scores 0,
 * like an even store difference, so it is not counted). Once it has proved a
 * win it cannot lose it, and a proven loss is lost to best play anyway, so an
 * opponent gains only on its moves before that (what this means for beating it at
 * equal time: docs/experiments/2026-12-01-network-search-at-50ms.md).
 */
export async function run(emit: Emit): Promise<void> {
  const rules = DEFAULT_RULES;
  const firstProven: number[] = [];
  const depths: number[] = [];
  let searched = 0;
  let proven = 0;
  let plies = 0;
  for (let i = 0; i < OPENINGS; i++) {
    const agent = new MinimaxAgent({ rules, timeMs: MOVE_MS });
    const rng = Random.fromSeed(`${SEED}|proof|${i}`);
    let position = openingFor(SEED, i, DEFAULT_OPENING_PLIES, rules).position;
    let ply = 0;
    let first = Number.POSITIVE_INFINITY;
    while (outcome(position, rules) === null) {
      const legal = legalActions(position, rules);
      agent.lastSearch = null;
      const action = agent.act(position, { legal, rng, rules });
      // A single legal action is played without a search.
      const result = agent.lastSearch as SearchResult | null;
      if (result !== null) {
        searched++;
        if (Math.abs(result.value) > PROVEN) {
          proven++;
          first = Math.min(first, ply);
        } else {
          depths.push(result.depth);
        }
      }
      position = applyAction(position, action, rules);
      ply++;
    }
    plies += ply;
    firstProven.push(first);
  }
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
