import { describe, expect, it } from 'vitest';
import { MinimaxSearch } from '../../agents/minimax-search.ts';
import { coreExp, openingValue, SearchCore } from '../../agents/puct/core/search-core.ts';
import { SEARCH_CORE_WASM } from '../../agents/puct/core/search-core-wasm.ts';
import { observationSize } from '../../env/gym/observation.ts';
import { core, Random, type Rules, resolveRules, ruleCode } from '../../env/index.ts';
import type { ForwardPass } from '../../models/mlp-runner.ts';
import { compileSearchCore } from '../../scripts/search-core.ts';
import { PositionLog } from '../../train/expert-iteration/position-log.ts';
import {
  SearchSelfPlay,
  type SearchSelfPlayOptions,
} from '../../train/expert-iteration/search-self-play.ts';
import type { SearchEngine } from '../../train/expert-iteration/self-play-searches.ts';
import { TrainingOpenings } from '../../train/expert-iteration/training-openings.ts';
import { selfPlayOptions } from './self-play-options.ts';

const built = compileSearchCore();
const missing = typeof built === 'string' ? built : null;
if (missing !== null && process.env.CI !== 'true') {
  process.stderr.write(`skipped: the search core's rebuild check: ${missing}\n`);
}

/**
 * A network of one linear layer with weights from `seed`, in float32: its
 * priors and values follow every float of the observation, so that two
 * searches fed different observations part at once.
 */
function linearNetwork(inputs: number, seed: number): ForwardPass {
  const rng = Random.fromSeed(seed);
  const weights = Float32Array.from({ length: 7 * inputs }, () => rng.next() - 0.5);
  return (observations, rows, logits, values) => {
    for (let r = 0; r < rows; r++) {
      for (let k = 0; k < 7; k++) {
        let sum = 0;
        for (let i = 0; i < inputs; i++) {
          sum = Math.fround(
            sum +
              Math.fround(
                (observations[r * inputs + i] as number) * (weights[k * inputs + i] as number),
              ),
          );
        }
        if (k < 6) logits[r * 6 + k] = 2 * sum;
        else values[r] = Math.tanh(sum);
      }
    }
  };
}

/** What a self-play of `moves` moves in three collects gives: every position, target and game carried on. */
function play(options: SearchSelfPlayOptions, engine: SearchEngine, seed: number) {
  const inputs = observationSize(options.observation);
  const selfPlay = new SearchSelfPlay(
    linearNetwork(inputs, seed),
    options,
    new TrainingOpenings({ minPlies: 0, maxPlies: 8, balanced: false }, options.rules),
    null,
    engine,
  );
  const rng = Random.fromSeed(seed);
  selfPlay.reset(rng);
  const collects = [];
  for (let k = 0; k < 3; k++) {
    const log = new PositionLog();
    const { seconds: _seconds, ...stats } = selfPlay.collect(150, log, rng);
    collects.push({ stats, positions: log.positions(), games: selfPlay.exportGames() });
  }
  // Games carried over through export and import, as between shards' threads.
  selfPlay.importGames(collects[2]?.games as ReturnType<SearchSelfPlay['exportGames']>);
  const log = new PositionLog();
  const { seconds: _seconds, ...stats } = selfPlay.collect(100, log, rng);
  collects.push({ stats, positions: log.positions(), games: selfPlay.exportGames() });
  return { collects, evaluations: selfPlay.evaluations, next: rng.next() };
}

const CASES: [string, Partial<SearchSelfPlayOptions>][] = [
  ['completed-Q targets, counts board', {}],
  [
    'the thermometer board, 16 simulations, 12 games',
    {
      observation: { encoding: 'thermometer', lookahead: true, lookaheadEncoding: 'counts' },
      simulations: 16,
      games: 12,
    },
  ],
  ['one simulation a move', { simulations: 1 }],
  ['visit-count targets with root noise', { policyTarget: 'visits', simulations: 8 }],
  [
    'a sharper completed-Q scale and the search value',
    { completedQScale: 1, searchValueWeight: 0.5 },
  ],
  ['the capturing seed stays', { rules: resolveRules({ captureSeedStays: true }) }],
  ['leftovers to their owner', { rules: resolveRules({ leftoverTo: 'owner' }) }],
  ['the rescoring solver', { solverNodes: 2000, maxPlies: 40 }],
];

describe('the WebAssembly search core', () => {
  it.skipIf(missing !== null && process.env.CI !== 'true')(
    'ships the bytes that search-core.c builds to (npm run build:search-core)',
    () => {
      if (typeof built === 'string') throw new Error(built);
      expect(Buffer.from(SEARCH_CORE_WASM, 'base64').equals(Buffer.from(built))).toBe(true);
    },
  );

  it.each(CASES)('plays the TypeScript searches’ games float for float: %s', (_name, overrides) => {
    const options = selfPlayOptions(overrides);
    const core = play(options, 'core', 7);
    const typescript = play(options, 'typescript', 7);
    // Games ended and their positions were logged in every collect.
    for (const collect of core.collects) expect(collect.positions.count).toBeGreaterThan(10);
    expect(core).toEqual(typescript);
  });

  it('refuses to search a finished game, as PuctSearch does', () => {
    const search = new SearchCore({
      games: 1,
      simulations: 4,
      encoding: 'counts',
      ruleCode: 0,
      exploration: 1.5,
      valueScale: 0.1,
      gumbel: true,
    });
    // Player 0's store holds 25 of the 48 seeds: the game is over.
    search.rootStates.set([0, 0, 0, 0, 0, 0, 4, 4, 4, 4, 4, 3, 25, 0, 1, 0]);
    search.begin(0);
    expect(() => search.selectAll()).toThrow('cannot search a finished game');
  });

  it('computes Math.exp to the bit, for its softmax of the network’s logits', () => {
    const rng = Random.fromSeed(11);
    const special = [0, -0, 1, -1, 1e-300, -1e-300, 709.78, 709.79, -745.13, -745.14];
    const inputs = [...special, Infinity, -Infinity, NaN];
    for (let i = 0; i < 100_000; i++) {
      // A softmax's differences of float32 logits, small ones, and the whole finite range.
      inputs.push(Math.fround(-30 * rng.next()) - Math.fround(30 * rng.next()));
      inputs.push((rng.next() - 0.5) * 1e-3);
      inputs.push((rng.next() - 0.5) * 1500);
    }
    const differing = inputs.filter((x) => !Object.is(coreExp(x), Math.exp(x)));
    expect(differing).toEqual([]);
  });

  it('leaves other observations to the TypeScript searches, with the same games', () => {
    const options = selfPlayOptions({
      observation: { encoding: 'onehot', lookahead: true, lookaheadEncoding: 'counts' },
    });
    expect(play(options, 'core', 3)).toEqual(play(options, 'typescript', 3));
  });
});

/** Positions of random games under `rules` (unfinished ones, every ply up to 60). */
function randomPositions(rules: Rules, count: number, seed: number): Uint8Array[] {
  const rng = Random.fromSeed(seed);
  const code = ruleCode(rules);
  const positions: Uint8Array[] = [];
  let state = core.setInitial(new Uint8Array(core.STATE_SIZE));
  let ply = 0;
  while (positions.length < count) {
    const mask = core.legalMask(state, code);
    if (mask === 0 || ply === 60) {
      state = core.setInitial(new Uint8Array(core.STATE_SIZE));
      ply = 0;
      continue;
    }
    positions.push(state.slice());
    core.playInPlace(state, core.nthAction(mask, rng.int(core.POPCOUNT[mask] as number)), code);
    ply++;
  }
  return positions;
}

describe('the search core’s opening rater', () => {
  it.each([
    ['the default rules', {}],
    [
      'the capturing seed stays, leftovers to their owner',
      { captureSeedStays: true, leftoverTo: 'owner' },
    ],
  ] as const)('gives MinimaxSearch’s value at depths 1 to 5: %s', (_name, input) => {
    const rules = resolveRules(input);
    const search = new MinimaxSearch({ rules, ttBits: 0 });
    let finishes = 0;
    for (const state of randomPositions(rules, 400, 11)) {
      for (let depth = 1; depth <= 5; depth++) {
        const { value } = search.search(state, { depth });
        // (+ 0: the TypeScript search negates a 0 into -0.)
        expect(openingValue(state, depth, ruleCode(rules))).toBe(value + 0);
        if (Math.abs(value) > 50_000) finishes++;
      }
    }
    // Some of the searches saw the game end: the finished values are checked too.
    expect(finishes).toBeGreaterThan(20);
  });

  it('refuses a depth it does not search', () => {
    const state = core.setInitial(new Uint8Array(core.STATE_SIZE));
    expect(() => openingValue(state, 0, 0)).toThrow(
      'opening depth must be an integer in 1..8, got 0',
    );
    expect(() => openingValue(state, 9, 0)).toThrow('got 9');
  });
});
