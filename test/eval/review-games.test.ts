import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_RULES, initialPosition } from '../../env/index.ts';
import { writeTournament } from '../../eval/report.ts';
import { reviewTournamentGames } from '../../eval/review-games.ts';
import type { GameErrors } from '../../eval/review-job.ts';
import { runTournament, type TournamentResult } from '../../eval/tournament.ts';
import { reviewGame, solverExactValues } from '../../solve/index.ts';
import { bookEndgame, TEST_ENDGAME_SEEDS } from '../solve/book-fixture.ts';

const scratch = mkdtempSync(join(tmpdir(), 'ayoayo-review-games-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const BUDGET_MS = 60_000;

/** The games' value-losing moves as a review of each whole game gives them, the opening left out. */
function expectedErrors(result: TournamentResult): GameErrors[] {
  // The books' endgame table, which the review's threads find in the same cache (the
  // solves from the opening take seconds each with a smaller one).
  const values = solverExactValues({ budgetMs: BUDGET_MS, endgame: bookEndgame });
  return result.games.map((game) => {
    const review = reviewGame(
      {
        start: initialPosition(),
        actions: [...game.openingMoves, ...game.actions],
        rules: DEFAULT_RULES,
        fromPly: game.openingMoves.length,
      },
      values,
    );
    const agents = review.moves;
    expect(agents[0]?.ply).toBe(game.openingMoves.length);
    const plies = (player: 0 | 1, error: boolean | null) =>
      agents.filter((m) => m.player === player && m.error === error).map((m) => m.ply);
    return {
      errors: [plies(0, true), plies(1, true)],
      undecided: [plies(0, null), plies(1, null)],
      moves: [
        agents.filter((m) => m.player === 0).length,
        agents.filter((m) => m.player === 1).length,
      ],
    };
  });
}

describe("a tournament's games reviewed", () => {
  let result: TournamentResult;
  let expected: GameErrors[];
  beforeAll(async () => {
    result = await runTournament({
      specs: ['greedy', 'minimax:2'],
      games: 6,
      seed: 12,
      workers: 0,
    });
    expected = expectedErrors(result);
  }, 120_000);

  it("finds each agent's value-losing moves, the opening's moves not judged, on worker threads as in this thread", async () => {
    const progress: number[] = [];
    const options = {
      rules: DEFAULT_RULES,
      budgetMs: BUDGET_MS,
      endgameSeeds: TEST_ENDGAME_SEEDS,
      quiet: true,
    };
    const threads = await reviewTournamentGames(result.games, {
      ...options,
      workers: 2,
      onProgress: (done, total) => {
        expect(total).toBe(6);
        progress.push(done);
      },
    });
    expect(threads).toEqual(expected);
    expect(progress.at(-1)).toBe(6);
    expect(await reviewTournamentGames(result.games, { ...options, workers: 0 })).toEqual(expected);
    // Greedy and depth-2 minimax do lose value; every value is proven.
    expect(expected.some((g) => g.errors[0].length + g.errors[1].length > 0)).toBe(true);
    result.games.forEach((game, i) => {
      const review = expected[i] as GameErrors;
      expect(review.moves[0] + review.moves[1]).toBe(game.actions.length);
      expect(review.undecided).toEqual([[], []]);
      for (const ply of [...review.errors[0], ...review.errors[1]]) {
        expect(ply).toBeGreaterThanOrEqual(game.openingMoves.length);
      }
    });
  }, 120_000);

  it("writes each seat's value-losing plies into games.csv and each game's review into results.json", () => {
    const out = join(scratch, 'out');
    writeTournament(out, result, expected);
    const [header, ...rows] = readFileSync(join(out, 'games.csv'), 'utf8').trimEnd().split('\n');
    const keys = (header as string).split(',');
    expect(keys.slice(-3)).toEqual([
      'value_losing_plies0',
      'value_losing_plies1',
      'undecided_plies',
    ]);
    rows.forEach((row, i) => {
      const cells = row.split(',');
      const review = expected[i] as GameErrors;
      expect(cells.slice(-3)).toEqual([review.errors[0].join(' '), review.errors[1].join(' '), '']);
    });
    const json = JSON.parse(readFileSync(join(out, 'results.json'), 'utf8')) as {
      games: { review: GameErrors; actions: number[] }[];
    };
    expect(json.games.map((g) => g.review)).toEqual(expected);
    expect(json.games.map((g) => g.actions)).toEqual(result.games.map((g) => g.actions));
    // Without a review, games.csv keeps its columns.
    writeTournament(join(scratch, 'plain'), result);
    const plain = readFileSync(join(scratch, 'plain', 'games.csv'), 'utf8').split('\n')[0];
    expect(plain).not.toContain('value_losing');
  });
});
