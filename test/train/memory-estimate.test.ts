import '../setup/builtin-algorithms.ts';
import { describe, expect, it } from 'vitest';
import { ObservationEncoder } from '../../env/gym/observation.ts';
import { DEFAULT_RULES } from '../../env/index.ts';
import { buildEndgame } from '../../solve/index.ts';
import { buildConfig } from '../../train/config/build.ts';
import { PRESETS } from '../../train/config/presets.ts';
import { ReplayBuffer } from '../../train/expert-iteration/replay-buffer.ts';
import { SearchSelfPlay } from '../../train/expert-iteration/search-self-play.ts';
import { TrainingOpenings } from '../../train/expert-iteration/training-openings.ts';
import { estimateRunMemory, type MemoryEstimate } from '../../train/run/memory-estimate.ts';
import { overMemoryLimit } from '../../train/run/memory-limit.ts';
import { selfPlayOptions } from './self-play-options.ts';

const partBytes = (estimate: MemoryEstimate, what: string): number =>
  estimate.parts.find((p) => p.what === what)?.bytes ?? Number.NaN;

/**
 * The bytes of typed arrays and WebAssembly memory `make` allocates (and
 * keeps alive until measured): Node counts both in `external`, the search
 * core's memory there alone.
 */
function allocated(make: () => unknown): number {
  const before = process.memoryUsage().external;
  const kept = make();
  const bytes = process.memoryUsage().external - before;
  expect(kept).toBeDefined();
  return bytes;
}

const config = buildConfig([
  PRESETS.smoke,
  {
    algorithm: 'expert-iteration',
    maxPlies: 2000,
    expertIteration: { gamesAtOnce: 512, simulations: 64, movesPerIteration: 50_000 },
  },
]);
const estimate = estimateRunMemory(config);

describe('the memory a run is estimated to need, before it allocates', () => {
  it("matches what self-play's games and searches allocate", () => {
    const options = selfPlayOptions({
      games: 512,
      maxPlies: 2000,
      simulations: 64,
      observation: { encoding: 'counts', lookahead: true, lookaheadEncoding: 'counts' },
    });
    const bytes = allocated(
      () =>
        new SearchSelfPlay(
          () => {
            throw new Error('no network in this test');
          },
          options,
          new TrainingOpenings({ minPlies: 0, maxPlies: 0, balanced: false }, DEFAULT_RULES),
        ),
    );
    // The logs are estimated twice over (a shard hands back a copy of its games in progress).
    const games = partBytes(estimate, 'self-play games in progress') / 2;
    // The trees start at their initial size: a search of 64 simulations fits in it.
    const trees = partBytes(estimate, 'their search trees');
    expect(bytes / (games + trees)).toBeGreaterThan(0.9);
    expect(bytes / (games + trees)).toBeLessThan(1.1);
  });

  it("matches what the replay window allocates, and counts its checkpoint's copy", () => {
    const encoder = new ObservationEncoder(
      { encoding: 'counts', lookahead: true, lookaheadEncoding: 'counts' },
      DEFAULT_RULES,
    );
    const bytes = allocated(() => new ReplayBuffer(50_000, encoder, 1));
    const window = partBytes(estimate, 'the replay window, and its copy in a checkpoint');
    // The checkpoint's copy (float32, then base64 text) is about 40% on top for this observation.
    expect(window / bytes).toBeGreaterThan(1.2);
    expect(window / bytes).toBeLessThan(1.6);
  });

  it('names the settings of its largest part when it does not fit', () => {
    const wide = estimateRunMemory(
      buildConfig([
        PRESETS.smoke,
        { algorithm: 'expert-iteration', maxPlies: 10000, expertIteration: { gamesAtOnce: 8192 } },
      ]),
    );
    expect(overMemoryLimit(wide, 64e9, 'this run', 'the limit')).toBeNull();
    expect(overMemoryLimit(wide, 2e9, 'this run', 'the limit')).toMatch(
      /^this run needs about 8\.\d GB of memory, more than the limit \(2\.0 GB\); most of it is self-play games in progress, 7\.5 GB \(gamesAtOnce 8192, maxPlies 10000\): lower gamesAtOnce or maxPlies$/,
    );
    // The presets fit a laptop with room to spare.
    for (const preset of ['quick', 'long', 'quick-ppo', 'long-ppo']) {
      expect(estimateRunMemory(buildConfig([PRESETS[preset] as never])).bytes).toBeLessThan(1e9);
    }
  });

  it("counts the rescoring solver's endgame table in every thread that loads it, with solverNodes only", () => {
    const solving = (seeds: number, workers: number) =>
      estimateRunMemory(
        buildConfig([
          PRESETS.smoke,
          {
            algorithm: 'expert-iteration',
            workers,
            expertIteration: { selfPlayShards: 8, solverNodes: 1000, solverEndgameSeeds: seeds },
          },
        ]),
      );
    const what = 'the rescoring solvers: an endgame table and a proof table a thread';
    const table = (seeds: number) => {
      const values = buildEndgame(seeds, DEFAULT_RULES);
      return values.lo.byteLength + values.hi.byteLength;
    };
    // The main thread and each worker thread hold a copy, with a proof table of 8 MB each.
    const proofTable = 32 * 2 ** 18;
    expect(partBytes(solving(8, 2), what)).toBe(3 * (table(8) + proofTable));
    expect(partBytes(solving(10, 1), what)).toBe(2 * (table(10) + proofTable));
    const without = estimateRunMemory(buildConfig([PRESETS.smoke]));
    expect(without.parts.some((p) => p.what === what)).toBe(false);
    // 20 seeds: the 452 MB table, once a thread and once more, names its setting.
    expect(overMemoryLimit(solving(20, 1), 0.5e9, 'this run', 'the limit')).toMatch(
      /most of it is the rescoring solvers: an endgame table and a proof table a thread, 920 MB \(solverNodes 1000, solverEndgameSeeds 20\)/,
    );
  });
});
