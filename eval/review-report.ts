import type { GameRecord } from './match.ts';
import type { GameErrors } from './review-job.ts';

/**
 * games.csv's columns of a reviewed tournament (`eval --out DIR --review`):
 * the plies of each seat's value-losing moves, space-separated (ply k is the
 * game's move k + 1, the opening's moves counted: with 4-ply openings the
 * agents' first move is ply 4), empty for none, and the plies of the agents'
 * moves the review could not decide within its budget.
 */
export const reviewColumns = [
  ['valueLosingPlies0', 'value_losing_plies0'],
  ['valueLosingPlies1', 'value_losing_plies1'],
  ['undecidedPlies', 'undecided_plies'],
] as const;

/** A game's review as games.csv's extra cells. */
export function reviewCells(review: GameErrors): Record<(typeof reviewColumns)[number][0], string> {
  return {
    valueLosingPlies0: review.errors[0].join(' '),
    valueLosingPlies1: review.errors[1].join(' '),
    undecidedPlies: [...review.undecided[0], ...review.undecided[1]]
      .sort((a, b) => a - b)
      .join(' '),
  };
}

/** One agent's moves over a tournament's reviewed games. */
export interface AgentReview {
  readonly agent: string;
  readonly moves: number;
  readonly errors: number;
  readonly undecided: number;
}

/** Each agent's moves, value-losing moves and undecided ones over every game, in the order agents first appear. */
export function agentReviews(
  games: readonly GameRecord[],
  reviews: readonly GameErrors[],
): AgentReview[] {
  const byAgent = new Map<string, { moves: number; errors: number; undecided: number }>();
  games.forEach((game, i) => {
    const review = reviews[i];
    if (review === undefined) return;
    for (const seat of [0, 1] as const) {
      const agent = game.players[seat];
      const sum = byAgent.get(agent) ?? { moves: 0, errors: 0, undecided: 0 };
      sum.moves += review.moves[seat];
      sum.errors += review.errors[seat].length;
      sum.undecided += review.undecided[seat].length;
      byAgent.set(agent, sum);
    }
  });
  return [...byAgent].map(([agent, sum]) => ({ agent, ...sum }));
}
