// The supervised probe of docs/experiments/2026-12-02-supervised-exact-label-probe.md: positions of
// minimax:3-7 games with 15% random moves and 0-8 random opening plies, each from ply 4 that the
// solver proves in 50 000 nodes (endgame table of 16 seeds), one JSON line each (board, proven
// value, mask of the value-keeping moves, whether the position is critical, ply):
//   npx tsx scripts/exact-label-probe/make-positions.ts SEED COUNT OUT.jsonl
// (the probe: seeds 101 and 202, 100 000 each, the first 100 000 lines of the two together)
import { appendFileSync, writeFileSync } from 'node:fs';
import { MinimaxSearch } from '../../agents/minimax-search.ts';
import { core, DEFAULT_RULES, Random, ruleCode } from '../../env/index.ts';
import { loadEndgame } from '../../solve/endgame/cache/table-cache.ts';
import { Solver } from '../../solve/index.ts';

const [seedArg, countArg, out] = process.argv.slice(2);
if (seedArg === undefined || countArg === undefined || out === undefined) {
  console.error('usage: tsx scripts/exact-label-probe/make-positions.ts SEED COUNT OUT.jsonl');
  process.exit(1);
}
const rng = Random.fromSeed(Number(seedArg));
const target = Number(countArg);
const rules = DEFAULT_RULES;
const code = ruleCode(rules);
const solver = new Solver({ rules, endgame: loadEndgame(16, rules), tableBits: 20 });
const minimax = new MinimaxSearch({ rules });
const s = new Uint8Array(core.STATE_SIZE);
writeFileSync(out, '');
let written = 0;
while (written < target) {
  core.setInitial(s);
  solver.clear();
  const opening = rng.int(9);
  const depth = 3 + rng.int(5);
  let lines = '';
  for (let ply = 0; ply < 200; ply++) {
    const mask = core.legalMask(s, code);
    if (mask === 0) break;
    if (ply >= 4) {
      const r = solver.solveState(s, { nodes: 50_000, moves: true });
      if (r.lo === r.hi) {
        let keep = 0;
        for (let a = 0; a < 6; a++) {
          if ((mask >> a) & 1 && (r.moveHi[a] as number) >= r.lo) keep |= 1 << a;
        }
        const row = { s: Array.from(s), v: r.lo, k: keep, c: keep !== mask ? 1 : 0, p: ply };
        lines += `${JSON.stringify(row)}\n`;
        written++;
      }
    }
    let action: number;
    if (ply < opening || rng.next() < 0.15) {
      action = core.nthAction(mask, rng.int(core.POPCOUNT[mask] as number));
    } else {
      const best = minimax.search(s, { depth }).bestActions;
      action = best[rng.int(best.length)] as number;
    }
    core.playInPlace(s, action, code);
  }
  appendFileSync(out, lines);
}
console.error(`${written} positions in ${out}`);
