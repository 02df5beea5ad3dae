// The opening book's cost per ply and the perfect player's time per move
// (docs/solver.md, "Opening book"; docs/agents.md, "perfect"):
//
//   npm run bench -- book
//
// BOOK_BENCH_PARTS: cost,perfect (both by default). cost: for each book of
// _FROM_PLIES (default 1).._PLIES plies (default 8), its positions and bytes, and the CPU time of
// solving its leaves, measured on a seeded sample of _SAMPLE leaves (default
// 60; every leaf where there are fewer) and scaled to all of them, one core
// (a file adds a header of about 250 bytes to its records).
// perfect: the perfect player's mean and largest time per move, on _MOVES
// (default 60) seeded positions of the book (plies 0-6, the book found as the
// player finds it) and as many from plies 7-12 of seeded games between
// minimax:4 players from random 4-ply openings. BOOK_BENCH_RULES: the rules
// of the cost part (the CLI's form, default the default rules; the endgame
// table under them is built into the cache when missing).
import { MinimaxAgent } from '../agents/minimax.ts';
import { PerfectAgent } from '../agents/perfect.ts';
import {
  applyAction,
  DEFAULT_RULES,
  formatRules,
  initialPosition,
  legalActions,
  outcome,
  type Position,
  parseRulesText,
  positionFromState,
  Random,
} from '../env/index.ts';
import { loadBook } from '../solve/book/cache/load-book.ts';
import { BOOK_TABLE_BITS, KEY_BYTES, RECORD_BYTES } from '../solve/book/format.ts';
import { LeafSolver } from '../solve/book/leaves.ts';
import { bookLevels } from '../solve/book/plan.ts';
import { cachedEndgame } from '../solve/endgame/cache/shared-tables.ts';
import { DEFAULT_ENDGAME_SEEDS } from '../solve/endgame/cache/table-cache.ts';
import type { Emit } from './types.ts';

const PARTS = (process.env.BOOK_BENCH_PARTS ?? 'cost,perfect').split(',');
const PLIES = Number(process.env.BOOK_BENCH_PLIES ?? 8);
const FROM_PLIES = Number(process.env.BOOK_BENCH_FROM_PLIES ?? 1);
const SAMPLE = Number(process.env.BOOK_BENCH_SAMPLE ?? 60);
const MOVES = Number(process.env.BOOK_BENCH_MOVES ?? 60);
const SEED = Number(process.env.BOOK_BENCH_SEED ?? 45);

function cpuMs<T>(f: () => T): { value: T; ms: number } {
  const start = process.cpuUsage();
  const value = f();
  const used = process.cpuUsage(start);
  return { value, ms: (used.user + used.system) / 1000 };
}

/** Positions at plies 7-12 of seeded minimax:4 games from random 4-ply openings. */
function midgamePositions(count: number, rng: Random): Position[] {
  const out: Position[] = [];
  const player = new MinimaxAgent({ rules: DEFAULT_RULES, name: 'minimax:4', depth: 4 });
  while (out.length < count) {
    let p = initialPosition();
    for (let ply = 0; ply <= 12 && outcome(p, DEFAULT_RULES) === null; ply++) {
      if (ply >= 7) out.push(p);
      const legal = legalActions(p, DEFAULT_RULES);
      const action =
        ply < 4 ? rng.pick(legal) : (player.act(p, { legal, rng, rules: DEFAULT_RULES }) as number);
      p = applyAction(p, action, DEFAULT_RULES);
    }
  }
  return out.slice(0, count);
}

function timePerMove(agent: PerfectAgent, positions: readonly Position[], rng: Random) {
  const times: number[] = [];
  let fromBook = 0;
  for (const p of positions) {
    const { value, ms } = cpuMs(() => agent.choose(p, DEFAULT_RULES, rng));
    if (value.source === 'book') fromBook++;
    times.push(ms);
  }
  const mean = times.reduce((s, t) => s + t, 0) / times.length;
  return {
    positions: positions.length,
    fromBook,
    meanMs: Number(mean.toFixed(2)),
    maxMs: Number(Math.max(...times).toFixed(1)),
  };
}

export async function run(emit: Emit): Promise<void> {
  if (PARTS.includes('cost')) {
    const rules =
      process.env.BOOK_BENCH_RULES !== undefined
        ? parseRulesText(process.env.BOOK_BENCH_RULES)
        : DEFAULT_RULES;
    const endgame = cachedEndgame(DEFAULT_ENDGAME_SEEDS, rules);
    const levels = bookLevels(rules, PLIES);
    let positions = 0;
    for (let plies = 1; plies <= PLIES; plies++) {
      positions += (levels[plies - 1] as Uint8Array).length / KEY_BYTES;
      if (plies < FROM_PLIES) continue;
      const leaves = levels[plies] as Uint8Array;
      const count = leaves.length / KEY_BYTES;
      const settings = {
        rules,
        plies,
        endgameSeeds: DEFAULT_ENDGAME_SEEDS,
        tableBits: BOOK_TABLE_BITS,
      };
      const solver = new LeafSolver(settings, endgame);
      const rng = Random.fromSeed(SEED + plies);
      const picked =
        count <= SAMPLE
          ? Array.from({ length: count }, (_, i) => i)
          : Array.from({ length: SAMPLE }, () => rng.int(count));
      let ms = 0;
      let maxMs = 0;
      for (const i of picked) {
        const t = cpuMs(() => solver.solve(leaves, i * KEY_BYTES)).ms;
        ms += t;
        maxMs = Math.max(maxMs, t);
      }
      const meanLeafMs = ms / picked.length;
      emit({
        name: 'book-cost',
        rules: formatRules(rules),
        plies,
        positions: positions + count,
        leaves: count,
        recordBytes: (positions + count) * RECORD_BYTES,
        sampledLeaves: picked.length,
        meanLeafMs: Number(meanLeafMs.toFixed(1)),
        maxLeafMs: Math.round(maxMs),
        leafCpuSeconds: Math.round((meanLeafMs * count) / 1000),
      });
    }
  }
  if (PARTS.includes('perfect')) {
    const rules = DEFAULT_RULES;
    const endgame = cachedEndgame(DEFAULT_ENDGAME_SEEDS, rules);
    const book = await loadBook(rules);
    const agent = new PerfectAgent({ name: 'perfect', rules, book, endgame });
    const rng = Random.fromSeed(SEED);
    const inBook = Array.from({ length: MOVES }, () =>
      positionFromState(book.stateAt(rng.int(book.size))),
    );
    emit({ name: 'perfect-book', bookPlies: book.plies, ...timePerMove(agent, inBook, rng) });
    const midgame = midgamePositions(MOVES, rng);
    emit({ name: 'perfect-plies-7-12', ...timePerMove(agent, midgame, rng) });
  }
}
