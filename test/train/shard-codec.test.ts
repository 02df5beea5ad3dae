import { describe, expect, it } from 'vitest';
import { DEFAULT_RULES, Random } from '../../env/index.ts';
import type { ForwardPass } from '../../models/mlp-runner.ts';
import { PositionLog } from '../../train/expert-iteration/position-log.ts';
import { SearchSelfPlay } from '../../train/expert-iteration/search-self-play.ts';
import { decodeGames, encodeGames } from '../../train/expert-iteration/shard-codec.ts';
import { TrainingOpenings } from '../../train/expert-iteration/training-openings.ts';
import { selfPlayOptions } from './self-play-options.ts';

const rules = DEFAULT_RULES;
const shape = { games: 4, maxPlies: 200 };

/** A zero network (uniform priors, value 0): self-play that needs no tfjs. */
function zeroNetwork(): ForwardPass {
  return (_obs, rows, logits, values) => {
    logits.fill(0, 0, rows * 6);
    values.fill(0, 0, rows);
  };
}

/** Games in progress after some moves, with the rescoring solver's bounds in their logs. */
function gamesInProgress() {
  const selfPlay = new SearchSelfPlay(
    zeroNetwork(),
    selfPlayOptions({
      games: shape.games,
      maxPlies: shape.maxPlies,
      simulations: 4,
      searchValueWeight: 0.5,
      solverNodes: 3000,
    }),
    new TrainingOpenings({ minPlies: 6, maxPlies: 8, balanced: false }, rules),
  );
  const rng = Random.fromSeed(21);
  selfPlay.reset(rng);
  selfPlay.collect(60, new PositionLog(), rng);
  return selfPlay.exportGames();
}

describe('a shard’s games through the queue', () => {
  it('come back exactly, the solver’s bounds with them', () => {
    const games = gamesInProgress();
    const proven = [...games.logBounds].filter((b, i) => i % 2 === 0 && b !== -1).length;
    expect(proven).toBeGreaterThan(0);
    const encoded = encodeGames(games, shape);
    const back = decodeGames(JSON.parse(JSON.stringify(encoded)), shape, 'test');
    // The used log slots, bit for bit (the empty ones are not sent).
    expect(encodeGames(back, shape)).toEqual(encoded);
    expect(back.states).toEqual(games.states);
    games.logCount.forEach((count, g) => {
      const from = 2 * g * shape.maxPlies;
      expect(back.logBounds.subarray(from, from + 2 * count)).toEqual(
        games.logBounds.subarray(from, from + 2 * count),
      );
    });
  });

  it('refuse bounds outside -1..1 or upside down, naming them', () => {
    const games = gamesInProgress();
    const used = [...games.logCount].findIndex((c) => c > 0);
    expect(used).toBeGreaterThanOrEqual(0);
    for (const [lo, hi] of [
      [1, -1],
      [2, 2],
    ] as const) {
      const bad = { ...games, logBounds: games.logBounds.slice() };
      bad.logBounds[2 * used * shape.maxPlies] = lo;
      bad.logBounds[2 * used * shape.maxPlies + 1] = hi;
      expect(() => decodeGames(encodeGames(bad, shape), shape, 'shard 0')).toThrow(
        `shard 0: logBounds: move 0 has bounds ${lo}..${hi}, not within -1..1`,
      );
    }
  });

  it('refuse a game that played fewer moves than it logged, naming it', () => {
    const games = gamesInProgress();
    const g = [...games.logCount].findIndex((c) => c > 0);
    const bad = { ...games, plies: games.plies.slice() };
    bad.plies[g] = (games.logCount[g] as number) - 1;
    expect(() => decodeGames(encodeGames(bad, shape), shape, 'shard 1')).toThrow(
      `shard 1: game ${g} played ${bad.plies[g]} moves, not between its ${games.logCount[g]} logged and maxPlies (200)`,
    );
  });
});
