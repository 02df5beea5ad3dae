/**
 * The observation features recomputed the slow, obvious way, through the
 * engine's public API only (positions, playMove, legalActions, outcome), as a
 * client in another language would from the README. Tests compare the fast
 * encoder with this.
 */
import { legalActions, outcome, type Position, playMove, type Rules } from '../../../env/index.ts';

function store(pos: Position, player: number): number {
  return pos.stores[player] as number;
}

export type Encoding = 'counts' | 'onehot' | 'thermometer';

/** [own row in action order, opponent row in action order] of the player to move. */
function rows(pos: Position, player: number): number[] {
  const own = pos.pits.slice(player * 6, player * 6 + 6);
  const opp = pos.pits.slice((1 - player) * 6, (1 - player) * 6 + 6);
  return [...own, ...opp];
}

/** The pits of `pos` from `player`'s side, each in `encoding`. */
function encodedPits(pos: Position, player: number, encoding: Encoding): number[] {
  const out: number[] = [];
  for (const seeds of rows(pos, player)) {
    if (encoding === 'counts') out.push(seeds / 12);
    else if (encoding === 'onehot') {
      for (let b = 0; b < 13; b++) out.push((b < 12 ? seeds === b : seeds >= 12) ? 1 : 0);
    } else {
      for (let b = 1; b <= 12; b++) out.push(seeds >= b ? 1 : 0);
    }
  }
  return out;
}

export function referenceBase(pos: Position, encoding: Encoding): number[] {
  const me = pos.toMove;
  return [...encodedPits(pos, me, encoding), store(pos, me) / 24, store(pos, 1 - me) / 24];
}

export function referenceLookahead(
  pos: Position,
  rules: Rules,
  lookaheadEncoding: Encoding = 'counts',
): number[] {
  const me = pos.toMove;
  const them = 1 - me;
  const legal = legalActions(pos, rules);
  const out: number[] = [];
  for (let a = 0; a < 6; a++) {
    if (!legal.includes(a)) {
      const width = lookaheadEncoding === 'counts' ? 1 : lookaheadEncoding === 'onehot' ? 13 : 12;
      out.push(...new Array<number>(10 + 12 * width).fill(0));
      continue;
    }
    const { position: child, report } = playMove(pos, a, rules);
    const end = outcome(child, rules);
    let ends = 0;
    let result = 0;
    let oppCapture = 0;
    let oppCanWin = 0;
    let value2: number;
    if (end !== null) {
      const diff = (end.scores[me] as number) - (end.scores[them] as number);
      ends = 1;
      result = Math.sign(diff);
      value2 = diff;
    } else {
      value2 = Number.POSITIVE_INFINITY;
      for (const r of legalActions(child, rules)) {
        const reply = playMove(child, r, rules);
        oppCapture = Math.max(oppCapture, reply.report.captured);
        const after = outcome(reply.position, rules);
        let diff: number;
        if (after !== null) {
          diff = (after.scores[me] as number) - (after.scores[them] as number);
        } else {
          diff = store(reply.position, me) - store(reply.position, them);
        }
        value2 = Math.min(value2, diff);
        // As worded in the README: the reply reaches 25, or ends the game with the opponent ahead.
        const ahead =
          after !== null && (after.scores[them] as number) > (after.scores[me] as number);
        if (store(reply.position, them) >= 25 || ahead) oppCanWin = 1;
      }
    }
    out.push(
      1,
      report.captured / 24,
      Math.min(1, Math.log2(1 + report.laps) / 8),
      ends,
      result,
      oppCapture / 24,
      oppCanWin,
      value2 / 24,
      ...encodedPits(child, me, lookaheadEncoding),
      store(child, me) / 24,
      store(child, them) / 24,
    );
  }
  return out;
}

export function referenceObservation(
  pos: Position,
  rules: Rules,
  encoding: Encoding,
  lookahead: boolean,
  lookaheadEncoding: Encoding = 'counts',
): Float32Array {
  const values = referenceBase(pos, encoding);
  if (lookahead) values.push(...referenceLookahead(pos, rules, lookaheadEncoding));
  return Float32Array.from(values);
}
