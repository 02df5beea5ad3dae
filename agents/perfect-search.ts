import { type Position, Random, type Rules, sameRules } from '../env/index.ts';
import { bookIfAny } from '../solve/book/cache/load-book.ts';
import { solvingAgentEndgame } from '../solve/endgame/cache/shared-tables.ts';
import { exactResult, type PolicySearchResult } from './network/policy-search.ts';
import { PerfectPlayers } from './perfect.ts';

/**
 * The perfect player as a service's search (`ayoayo serve --search perfect`):
 * each request answered from the opening book or the exact solver with no
 * budget, ties broken by a generator seeded the same for every request, so
 * that the answer is a function of the position and rules. Under the
 * policy's rules it reads the solve=1 agents' endgame table (built into the
 * cache on first use) and the deepest book there is; under other rules a
 * request gets the book found, no table, and builds nothing.
 */
export class PerfectSearch {
  readonly label = 'perfect';
  readonly #players: PerfectPlayers;

  /** `rules`: the service's own (its endgame table is read, or built, now rather than on a request). */
  constructor(readonly rules: Rules) {
    this.#players = new PerfectPlayers('--search perfect', (asked) => ({
      book: bookIfAny(asked),
      endgame: sameRules(asked, rules) ? solvingAgentEndgame(asked) : null,
    }));
    this.#players.for(rules);
  }

  search(position: Position, rules: Rules): PolicySearchResult {
    const player = this.#players.for(rules);
    const choice = player.choose(position, rules, Random.fromSeed(0));
    return exactResult(choice.action, choice.value ?? 0, choice.value !== null);
  }
}
