import { formatRules, type Position, Random, type Rules, sameRules } from '../env/index.ts';
import type { OpeningBook } from '../solve/book/book.ts';
import { bookIfAny } from '../solve/book/cache/load-book.ts';
import { solvingAgentEndgame } from '../solve/endgame/cache/shared-tables.ts';
import { exactResult, type PolicySearchResult } from './network/policy-search.ts';
import { PerfectPlayers } from './perfect.ts';

/**
 * A position the perfect player will not take on: rules it has neither a book
 * nor an endgame table for, where a solve from the opening could take hours.
 */
export class UnservedRulesError extends Error {
  override name = 'UnservedRulesError';
}

export interface PerfectSearchOptions {
  /** The opening book under some rules (default bookIfAny: the cache's, the package's; null: none). */
  readonly book?: (rules: Rules) => OpeningBook | null;
}

/**
 * The perfect player as a service's search (`ayoayo serve --search perfect`):
 * each request answered from the opening book or the exact solver with no
 * budget, ties broken by a generator seeded the same for every request, so
 * that the answer is a function of the position and rules. Under the
 * service's rules it reads the solve=1 agents' endgame table and the deepest
 * book there is (the `serve` command makes sure both are in the cache before
 * it starts). Under other rules it reads the book there is for them, no
 * table, and builds nothing; with no book for them it refuses the position
 * (UnservedRulesError, naming the command that builds one), since solving
 * an opening without book or table can take hours.
 */
export class PerfectSearch {
  readonly label = 'perfect';
  readonly #players: PerfectPlayers;
  readonly #book: (rules: Rules) => OpeningBook | null;

  /** `rules`: the service's own (its endgame table is read, or built, now rather than on a request). */
  constructor(
    readonly rules: Rules,
    { book = bookIfAny }: PerfectSearchOptions = {},
  ) {
    this.#book = book;
    this.#players = new PerfectPlayers('--search perfect', (asked) => ({
      book: book(asked),
      endgame: sameRules(asked, rules) ? solvingAgentEndgame(asked) : null,
    }));
    this.#players.for(rules);
  }

  search(position: Position, rules: Rules): PolicySearchResult {
    if (!sameRules(rules, this.rules) && this.#book(rules) === null) {
      const asked = formatRules(rules);
      throw new UnservedRulesError(
        `--search perfect has no opening book under ${asked}, and without one a position of the opening can take hours to solve (its book and endgame table are of the service's rules, ${formatRules(this.rules)}): build one with \`ayoayo book build --rules ${asked}\`, then start the service again`,
      );
    }
    const player = this.#players.for(rules);
    const choice = player.choose(position, rules, Random.fromSeed(0));
    return exactResult(choice.action, choice.value ?? 0, choice.value !== null);
  }
}
