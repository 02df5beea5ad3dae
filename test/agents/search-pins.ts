/**
 * Seeded searches whose results test/agents/search-pins.test.ts pins, so that
 * a rewrite of the PUCT search (its tree storage, selection, proofs, virtual
 * loss, root noise, tree reuse, the Gumbel root and the stepped driver) is
 * shown to give the same visits, values and moves.
 */
import type { Evaluator } from '../../agents/evaluator.ts';
import { PuctAgent } from '../../agents/puct/agent.ts';
import { GumbelRoot, gumbelSearch } from '../../agents/puct/gumbel.ts';
import { type PuctOptions, type PuctResult, PuctSearch } from '../../agents/puct/search.ts';
import { ACTIONS, STATE_SIZE, STORE_0, TO_MOVE } from '../../env/core.ts';
import { applyAction, legalActions, outcome } from '../../env/game.ts';
import { initialPosition, type Position, position } from '../../env/position.ts';
import { Random } from '../../env/random.ts';
import { DEFAULT_RULES, type Rules, resolveRules } from '../../env/rules.ts';
import { endgame, randomPositions } from './positions.ts';

/**
 * Priors that are far from uniform (a pit's share grows with its seeds
 * squared) and a value from the stores and the seeds on each side: a
 * deterministic evaluator under which the prior mixing, the noise and the
 * exploration term all change the visits.
 */
export const shapedEvaluator: Evaluator = {
  evaluate(states, masks, count, priors, values) {
    for (let i = 0; i < count; i++) {
      const s = i * STATE_SIZE;
      const mover = states[s + TO_MOVE] as number;
      const own = mover * 6;
      const mask = masks[i] as number;
      let total = 0;
      for (let a = 0; a < ACTIONS; a++) {
        const seeds = states[s + own + a] as number;
        const w = mask & (1 << a) ? 1 + seeds * seeds : 0;
        priors[i * ACTIONS + a] = w;
        total += w;
      }
      for (let a = 0; a < ACTIONS; a++) {
        priors[i * ACTIONS + a] = (priors[i * ACTIONS + a] as number) / total;
      }
      let side = 0;
      for (let p = 0; p < 6; p++) {
        side += (states[s + own + p] as number) - (states[s + 6 - own + p] as number);
      }
      const stores =
        (states[s + STORE_0 + mover] as number) - (states[s + STORE_0 + 1 - mover] as number);
      values[i] = Math.tanh((stores + 0.25 * side) / 8);
    }
  },
};

/** What a search's result is pinned by. */
export interface SearchSummary {
  readonly visits: number[];
  readonly q: number[];
  readonly priors: number[];
  readonly value: number;
  readonly rawValue: number;
  readonly solved: boolean;
  readonly bestActions: number[];
  readonly simulations: number;
  readonly evaluations: number;
}

export function summarise(result: PuctResult): SearchSummary {
  return {
    visits: [...result.visits],
    q: [...result.q],
    priors: [...result.priors],
    value: result.value,
    rawValue: result.rawValue,
    solved: result.solved,
    bestActions: [...result.bestActions],
    simulations: result.simulations,
    evaluations: result.evaluations,
  };
}

/** Player 0 to move: action 4 captures and reaches 26 seeds, a win at once. */
const WIN_IN_ONE = position({
  pits: [2, 0, 0, 0, 1, 0, 3, 0, 0, 0, 0, 0],
  stores: [22, 20],
  toMove: 0,
});

/** The positions searched: the start, three from random play, an endgame small enough to prove. */
export function pinnedPositions(): Position[] {
  const rng = Random.fromSeed(2024);
  let small: Position | null = null;
  while (small === null) small = endgame(rng, 7, DEFAULT_RULES);
  return [initialPosition(), ...randomPositions(31, 3, DEFAULT_RULES), small, WIN_IN_ONE];
}

function search(options: Partial<PuctOptions> = {}, rules: Rules = DEFAULT_RULES): PuctSearch {
  return new PuctSearch(shapedEvaluator, { rules, ...options });
}

/** PUCT as agents use it, one search per position. */
export function plainSearches(): SearchSummary[] {
  return pinnedPositions().map((pos) =>
    summarise(search().search(pos.toState(), { simulations: 200 })),
  );
}

/** Other rules, other exploration and prior weight. */
export function otherRulesSearches(): SearchSummary[] {
  const rules = resolveRules({ captureSeedStays: true, leftoverTo: 'owner' });
  return pinnedPositions()
    .slice(0, 4)
    .map((pos) =>
      summarise(
        search({ exploration: 0.8, priorWeight: 0.9 }, rules).search(pos.toState(), {
          simulations: 150,
        }),
      ),
    );
}

/** Dirichlet noise on the root priors from a seeded generator. */
export function noisySearches(): SearchSummary[] {
  const rng = Random.fromSeed(77);
  const noisy = search({ rootNoise: { alpha: 0.3, fraction: 0.25 } });
  return pinnedPositions()
    .slice(0, 4)
    .map((pos) => summarise(noisy.search(pos.toState(), { simulations: 150 }, rng)));
}

/** Leaves evaluated eight at a time under virtual loss. */
export function batchedSearches(): SearchSummary[] {
  const batched = search({ batchSize: 8 });
  return pinnedPositions().map((pos) =>
    summarise(batched.search(pos.toState(), { simulations: 200 })),
  );
}

/**
 * A kept tree: each position searched, its best move played and the first
 * legal reply, the next search starting from the kept grandchild; then a
 * position not in the tree.
 */
export function reusedSearches(): SearchSummary[] {
  const reusing = search({ reuseTree: true });
  const out: SearchSummary[] = [];
  let pos = pinnedPositions()[1] as Position;
  for (let turn = 0; turn < 4 && outcome(pos, DEFAULT_RULES) === null; turn++) {
    const result = reusing.search(pos.toState(), { simulations: 120 });
    out.push(summarise(result));
    pos = applyAction(pos, result.bestActions[0] as number, DEFAULT_RULES);
    if (outcome(pos, DEFAULT_RULES) !== null) break;
    pos = applyAction(pos, legalActions(pos, DEFAULT_RULES)[0] as number, DEFAULT_RULES);
  }
  out.push(summarise(reusing.search(initialPosition().toState(), { simulations: 120 })));
  return out;
}

/** What a Gumbel root search is pinned by. */
export interface GumbelSummary {
  readonly action: number;
  readonly policy: number[];
  readonly gumbel: number[];
  readonly search: SearchSummary;
}

/** Gumbel MuZero's root search through gumbelSearch, one seed per position. */
export function gumbelSearches(): GumbelSummary[] {
  const gumbelled = search({ priorWeight: 1 });
  return pinnedPositions().map((pos, i) => {
    const found = gumbelSearch(gumbelled, pos.toState(), { simulations: 24 }, Random.fromSeed(i));
    return {
      action: found.action,
      policy: [...found.policy],
      gumbel: [...found.gumbel],
      search: summarise(found.search),
    };
  });
}

/**
 * The stepped interface as self-play drives it (begin, then one leaf at a
 * time evaluated by the caller, then result): a Gumbel root, and PUCT with
 * root noise.
 */
export function steppedSearches(): (GumbelSummary | SearchSummary)[] {
  const evaluator = shapedEvaluator;
  const rng = Random.fromSeed(99);
  const out: (GumbelSummary | SearchSummary)[] = [];
  const stepped = search({ priorWeight: 1, rootNoise: { alpha: 1, fraction: 0.25 } });
  const drive = (done: () => boolean): PuctResult => {
    while (!done()) {
      if (stepped.selectLeaves(1) === 0) continue;
      evaluator.evaluate(
        stepped.leafStates,
        stepped.leafMasks,
        1,
        stepped.leafPriors,
        stepped.leafValues,
      );
      stepped.completeLeaves();
    }
    return stepped.result();
  };
  for (const pos of pinnedPositions().slice(0, 4)) {
    const root = new GumbelRoot({ simulations: 16 }, rng);
    stepped.reset();
    stepped.begin(pos.toState(), null, root.chooser);
    const found = root.finish(
      drive(
        () =>
          (stepped.rootSolved && stepped.simulationsDone > 0) ||
          stepped.simulationsDone >= root.totalSimulations,
      ),
    );
    out.push({
      action: found.action,
      policy: [...found.policy],
      gumbel: [...found.gumbel],
      search: summarise(found.search),
    });
    stepped.reset();
    stepped.begin(pos.toState(), rng, null);
    out.push(
      summarise(
        drive(
          () =>
            (stepped.rootSolved && stepped.simulationsDone > 0) || stepped.simulationsDone >= 40,
        ),
      ),
    );
  }
  return out;
}

/** The moves of a seeded game between a PUCT agent that keeps its tree and a Gumbel one. */
export function agentGame(): number[] {
  const agents = [
    new PuctAgent(shapedEvaluator, {
      name: 'puct',
      rules: DEFAULT_RULES,
      simulations: 60,
      reuseTree: true,
    }),
    new PuctAgent(shapedEvaluator, {
      name: 'gumbel',
      rules: DEFAULT_RULES,
      simulations: 16,
      priorWeight: 1,
      gumbel: true,
    }),
  ];
  for (const agent of agents) agent.newGame();
  const rng = Random.fromSeed(5);
  const moves: number[] = [];
  let pos = initialPosition();
  while (outcome(pos, DEFAULT_RULES) === null && moves.length < 40) {
    const legal = legalActions(pos, DEFAULT_RULES);
    const agent = agents[pos.toMove] as PuctAgent;
    const action = agent.act(pos, { legal, rng, rules: DEFAULT_RULES }) as number;
    moves.push(action);
    pos = applyAction(pos, action, DEFAULT_RULES);
  }
  return moves;
}

/** Every pinned result, by name. */
export function allPins(): Record<string, unknown> {
  return {
    plain: plainSearches(),
    otherRules: otherRulesSearches(),
    noisy: noisySearches(),
    batched: batchedSearches(),
    reused: reusedSearches(),
    gumbel: gumbelSearches(),
    stepped: steppedSearches(),
    agentGame: agentGame(),
  };
}
