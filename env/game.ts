import {
  ACTIONS,
  DOES_NOT_FEED,
  EMPTY_PIT,
  ENDLESS_RELAY,
  finalScores,
  GAME_OVER,
  hasWinningStore,
  legalMask,
  MoveStats,
  type MoveStatus,
  OK,
  playInPlace,
  STATE_SIZE,
} from './core.ts';
import { IllegalActionError, type IllegalReason } from './errors.ts';
import { maskActions } from './mask.ts';
import { type Player, Position } from './position.ts';
import { ruleCode } from './rule-code.ts';
import { type Rules, type RulesInput, resolveRules } from './rules.ts';

export interface Outcome {
  /** Final [player 0, player 1] seeds, after any end-of-game sweep. */
  readonly scores: readonly [number, number];
  /** The player with more seeds, or null for a 24-24 draw. */
  readonly winner: Player | null;
}

/** What a played action did. */
export interface MoveReport {
  readonly player: Player;
  readonly action: number;
  /** The pit lifted first (0..11). */
  readonly pit: number;
  /** Laps sown: 1 plus the number of relays. */
  readonly laps: number;
  readonly seedsSown: number;
  /** The pit where the last seed landed (0..11). */
  readonly endPit: number;
  /** Seeds moved into the mover's store by the capture (0 if none). */
  readonly captured: number;
  /** The pit captured from, or null. */
  readonly capturedFrom: number | null;
}

/** One lap of a move, for showing a relay step by step. */
export interface Lap {
  readonly from: number;
  readonly seeds: number;
  readonly end: number;
  /** The board right after this lap's sowing (before any capture). */
  readonly pitsAfter: readonly number[];
}

const REASONS: Record<Exclude<MoveStatus, typeof OK>, IllegalReason> = {
  [GAME_OVER]: 'game-over',
  [EMPTY_PIT]: 'empty-pit',
  [ENDLESS_RELAY]: 'endless-relay',
  [DOES_NOT_FEED]: 'does-not-feed',
};

export function reasonOf(status: Exclude<MoveStatus, typeof OK>): IllegalReason {
  return REASONS[status];
}

/** The legal actions (0..5 from the mover's side), ascending; empty once the game is over. */
export function legalActions(pos: Position, rules?: RulesInput): number[] {
  return maskActions(legalMask(pos.stateView, ruleCode(resolveRules(rules))));
}

/** Why `action` is illegal in `pos`, or null if it is legal. */
export function illegalReason(
  pos: Position,
  action: number,
  rules?: RulesInput,
): IllegalReason | null {
  const r = resolveRules(rules);
  if (!Number.isInteger(action) || action < 0 || action >= ACTIONS) return 'not-an-action';
  const status = attempt(pos, action, r, null, null).status;
  return status === OK ? null : reasonOf(status);
}

function attempt(
  pos: Position,
  action: number,
  rules: Rules,
  stats: MoveStats | null,
  onLap: ((from: number, seeds: number, end: number, s: Uint8Array) => void) | null,
): { status: MoveStatus; state: Uint8Array } {
  const state = pos.toState();
  const code = ruleCode(rules);
  if (hasWinningStore(state) || legalMask(state, code) === 0) {
    return { status: GAME_OVER, state };
  }
  return { status: playInPlace(state, action, code, stats, onLap), state };
}

/**
 * Plays an action and reports what it did. Throws IllegalActionError (with the
 * reason and the legal actions) if the action cannot be played.
 */
export function playMove(
  pos: Position,
  action: number,
  rules?: RulesInput,
): { position: Position; report: MoveReport } {
  const r = resolveRules(rules);
  if (typeof action !== 'number' || !Number.isInteger(action) || action < 0 || action >= ACTIONS) {
    throw new IllegalActionError(action, 'not-an-action', legalActions(pos, r));
  }
  const stats = new MoveStats();
  const { status, state } = attempt(pos, action, r, stats, null);
  if (status !== OK) throw new IllegalActionError(action, reasonOf(status), legalActions(pos, r));
  const player = pos.toMove;
  return {
    position: Position.adopt(state),
    report: {
      player,
      action,
      pit: player * 6 + action,
      laps: stats.laps,
      seedsSown: stats.seedsSown,
      endPit: stats.endPit,
      captured: stats.captured,
      capturedFrom: stats.capturedPit >= 0 ? stats.capturedPit : null,
    },
  };
}

/** The position after `action`; `pos` is never changed. Throws IllegalActionError. */
export function applyAction(pos: Position, action: number, rules?: RulesInput): Position {
  return playMove(pos, action, rules).position;
}

/** Every lap of a legal move in order (for the CLI and the browser's relay view). */
export function traceMove(pos: Position, action: number, rules?: RulesInput): Lap[] {
  const r = resolveRules(rules);
  const legal = legalActions(pos, r);
  if (!legal.includes(action)) {
    const reason = illegalReason(pos, action, r) ?? 'not-an-action';
    throw new IllegalActionError(action, reason, legal);
  }
  const laps: Lap[] = [];
  attempt(pos, action, r, null, (from, seeds, end, s) => {
    laps.push({ from, seeds, end, pitsAfter: Array.from(s.subarray(0, 12)) });
  });
  return laps;
}

/** null while the game goes on; else the final scores (after any sweep) and the winner. */
export function outcome(pos: Position, rules?: RulesInput): Outcome | null {
  const code = ruleCode(resolveRules(rules));
  const state = pos.stateView;
  const scores = [0, 0];
  const mask = hasWinningStore(state) ? 0 : legalMask(state, code);
  if (!finalScores(state, mask, code, scores)) return null;
  const [s0, s1] = scores as [number, number];
  return { scores: [s0, s1], winner: s0 > s1 ? 0 : s1 > s0 ? 1 : null };
}

export function isTerminal(pos: Position, rules?: RulesInput): boolean {
  return outcome(pos, rules) !== null;
}

/** Size of a state buffer, re-exported for users of the fast path. */
export { STATE_SIZE };
