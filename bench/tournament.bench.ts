import { availableParallelism } from 'node:os';
import { runTournament } from '../eval/tournament.ts';
import type { Emit } from './types.ts';

/**
 * Tournament throughput: games per second for a few pairings, in one thread and
 * on a worker pool with one thread per core. The pool's figure includes starting
 * the workers (each imports the engine and the agents; run from the sources, as
 * `npm run bench` does, it first registers tsx, a second or two), so it is also
 * given for the games alone (`gamesPerSecSteady`: the rate from the first
 * progress report on).
 */
export async function run(emit: Emit): Promise<void> {
  const cores = availableParallelism();
  const cases: [string, string, number][] = [
    ['greedy', 'random', 4000],
    ['minimax:2', 'random', 4000],
    ['minimax:4', 'greedy', 1000],
    ['mcts:200', 'random', 400],
  ];
  for (const [a, b, games] of cases) {
    for (const workers of [0, cores]) {
      let firstAt = 0;
      let doneAtFirst = 0;
      const started = performance.now();
      const result = await runTournament({
        specs: [a, b],
        games,
        seed: 1,
        workers,
        onProgress: ({ done }) => {
          if (firstAt === 0) {
            firstAt = performance.now();
            doneAtFirst = done;
          }
        },
      });
      const elapsed = (performance.now() - started) / 1000;
      const steady = (games - doneAtFirst) / ((performance.now() - firstAt) / 1000);
      const plies = result.games.reduce((n, g) => n + g.plies, 0);
      emit({
        name: 'tournament-games-per-sec',
        pairing: `${a} vs ${b}`,
        games,
        workers,
        seconds: Number(elapsed.toFixed(2)),
        gamesPerSec: Math.round(games / elapsed),
        gamesPerSecSteady: Math.round(steady),
        meanPlies: Number((plies / games).toFixed(1)),
        scoreA: Number(result.pairings[0]?.score.toFixed(3)),
      });
    }
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await run((m) => console.log(JSON.stringify(m)));
}
