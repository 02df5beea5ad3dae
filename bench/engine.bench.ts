import { randomPlayout } from '../agents/playout.ts';
import {
  core,
  DEFAULT_RULE_CODE,
  everyRules,
  formatRules,
  Random,
  type RuleCode,
  type Rules,
  ruleCode,
} from '../env/index.ts';
import { median, medianRatio } from './median.ts';
import {
  compileNativePlayouts,
  foldScores,
  type PlayedGames,
  type PlayoutLoop,
  type TimedRun,
} from './native-playouts.ts';
import { playoutLoops } from './playout-loops.ts';
import type { Emit } from './types.ts';
import { compileWasmPlayouts } from './wasm-playouts.ts';

const { ACTIONS, STATE_SIZE, finalScores, setInitial } = core;
const loops = playoutLoops(core);

// The random playout moved to agents/playout.ts (MCTS uses it); re-exported here.
export { randomPlayout };
export const { expandPlayout } = loops;

/** One loop's game function over shared buffers, playing from the state it is given. */
function loopOf(loop: PlayoutLoop, rng: Random, code: RuleCode) {
  const children = new Uint8Array(ACTIONS * STATE_SIZE);
  const status = new Uint8Array(ACTIONS);
  return loop === 'reject'
    ? (state: Uint8Array) => randomPlayout(state, rng, code)
    : (state: Uint8Array) => expandPlayout(state, children, status, rng, code);
}

/**
 * Plays `games` games of a loop from the start with `Random.fromSeed(1)`, the
 * way bench/c/playouts.c `verify` does, so the two can be compared game for game.
 */
export function playGames(loop: PlayoutLoop, games: number, rules: Rules): PlayedGames {
  const code = ruleCode(rules);
  const play = loopOf(loop, Random.fromSeed(1), code);
  const state = new Uint8Array(STATE_SIZE);
  const scores = [0, 0];
  let plies = 0;
  let checksum = 0;
  for (let g = 0; g < games; g++) {
    setInitial(state);
    plies += play(state);
    finalScores(state, 0, code, scores);
    checksum = foldScores(checksum, scores[0] as number, scores[1] as number);
  }
  return { games, plies, checksum };
}

const NAMES: Record<PlayoutLoop, string> = {
  reject: 'engine-playouts',
  expand: 'engine-playouts-expand',
};
const CHECK_GAMES = 20_000;
const ROUNDS = 5;
const ROUND_SECONDS = 1;

const perSecond = (count: number, run: TimedRun): number => count / (run.cpuMs / 1000);

/** Stops the bench when a yardstick does not play the engine's games: its speed would compare nothing. */
function checkSameGames(
  what: string,
  play: (games: number, rules: Rules) => Record<PlayoutLoop, PlayedGames>,
): void {
  for (const rules of everyRules()) {
    const other = play(CHECK_GAMES, rules);
    for (const loop of ['reject', 'expand'] as const) {
      const ts = playGames(loop, CHECK_GAMES, rules);
      if (JSON.stringify(ts) !== JSON.stringify(other[loop])) {
        throw new Error(
          `${what} plays other games than the engine (${loop}, ${formatRules(rules)}): ${JSON.stringify(other[loop])}, TypeScript ${JSON.stringify(ts)}`,
        );
      }
    }
  }
}

/**
 * Both playout loops, in games and plies per second of CPU time, and when a C
 * compiler exists the same loops of bench/c/playouts.c in the same run, native
 * and (with clang for wasm32) as WebAssembly in this process: rounds of
 * TypeScript, C and wasm alternate, and each ratio is the median of the rounds'.
 */
export async function run(emit: Emit): Promise<void> {
  const native = compileNativePlayouts();
  if (typeof native === 'string') {
    process.stderr.write(`engine: ${native}; the comparison with C is skipped\n`);
  }
  const wasm = compileWasmPlayouts();
  if (typeof wasm === 'string') {
    process.stderr.write(`engine: ${wasm}; the C loops as WebAssembly are skipped\n`);
  }
  try {
    if (typeof native !== 'string') {
      checkSameGames('bench/c/playouts.c', (games, rules) => native.play(games, rules));
    }
    if (typeof wasm !== 'string') {
      checkSameGames('bench/c/playouts.c as wasm32', (games, rules) => wasm.play(games, rules));
      checkSameGames('bench/c/playouts.c as wasm32 called a ply at a time', (games, rules) => ({
        reject: playGames('reject', games, rules),
        expand: wasm.playExpandFromJs(games, rules),
      }));
    }
    const rng = Random.fromSeed(1);
    for (const loop of ['reject', 'expand'] as const) {
      const play = loopOf(loop, rng, DEFAULT_RULE_CODE);
      loops.timeGames(play, 1); // warm-up for the JIT
      const ts: TimedRun[] = [];
      const c: TimedRun[] = [];
      const w: TimedRun[] = [];
      const wFromJs: TimedRun[] = [];
      if (typeof wasm !== 'string') {
        // Warm-up for V8's wasm tiers and the JavaScript driving them.
        wasm.time(loop, 1);
        if (loop === 'expand') wasm.timeExpandFromJs(1);
      }
      for (let round = 0; round < ROUNDS; round++) {
        ts.push(loops.timeGames(play, ROUND_SECONDS));
        if (typeof native !== 'string') c.push(native.time(loop, ROUND_SECONDS));
        if (typeof wasm !== 'string') {
          w.push(wasm.time(loop, ROUND_SECONDS));
          if (loop === 'expand') wFromJs.push(wasm.timeExpandFromJs(ROUND_SECONDS));
        }
      }
      const games = ts.reduce((n, r) => n + r.games, 0);
      const plies = ts.reduce((n, r) => n + r.plies, 0);
      const tsGames = ts.map((r) => perSecond(r.games, r));
      const measurement: Record<string, unknown> = {
        name: NAMES[loop],
        playoutsPerSec: Math.round(median(tsGames)),
        pliesPerSec: Math.round(median(ts.map((r) => perSecond(r.plies, r)))),
        meanPlies: Number((plies / games).toFixed(1)),
        clock: 'cpu',
      };
      if (c.length > 0) {
        const cGames = c.map((r) => perSecond(r.games, r));
        measurement.cPlayoutsPerSec = Math.round(median(cGames));
        measurement.cPliesPerSec = Math.round(median(c.map((r) => perSecond(r.plies, r))));
        measurement.cMeanPlies = Number(
          (c.reduce((n, r) => n + r.plies, 0) / c.reduce((n, r) => n + r.games, 0)).toFixed(1),
        );
        measurement.ratioToC = medianRatio(tsGames, cGames);
        if (w.length > 0) {
          const wasmGames = w.map((r) => perSecond(r.games, r));
          measurement.wasmPlayoutsPerSec = Math.round(median(wasmGames));
          measurement.wasmRatioToC = medianRatio(wasmGames, cGames);
        }
        if (wFromJs.length > 0) {
          const fromJsGames = wFromJs.map((r) => perSecond(r.games, r));
          measurement.wasmFromJsPlayoutsPerSec = Math.round(median(fromJsGames));
          measurement.wasmFromJsRatioToC = medianRatio(fromJsGames, cGames);
        }
      }
      emit(measurement);
    }
  } finally {
    if (typeof native !== 'string') native.dispose();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  await run((m) => console.log(JSON.stringify(m)));
}
