/**
 * A deliberately naive second implementation of docs/rules.md, for tests only.
 *
 * It shares no code with env/: plain arrays, one seed at a time, and endless
 * relays found by remembering every lap start of the move in a set (memory grows
 * with the relay, which is fine here and is exactly what the engine avoids).
 * Tests compare the engine's fast path and public API against it.
 */

export interface RefState {
  pits: number[];
  stores: [number, number];
  toMove: 0 | 1;
}

export type RefReason = 'game-over' | 'empty-pit' | 'endless-relay' | 'does-not-feed';

export interface RefMove {
  state: RefState;
  laps: number;
  seedsSown: number;
  endPit: number;
  captured: number;
  capturedFrom: number | null;
}

/** Sows one lap from `from` in place, one seed at a time, skipping the origin; returns the end pit. */
export function refSowLap(pits: number[], from: number): number {
  let seeds = pits[from] as number;
  pits[from] = 0;
  let pit = from;
  while (seeds > 0) {
    pit = (pit + 1) % 12;
    if (pit === from) continue;
    pits[pit] = (pits[pit] as number) + 1;
    seeds--;
  }
  return pit;
}

export type RefRelay =
  | { endless: false; laps: number; seedsSown: number; end: number; pits: number[] }
  /** The lap start at index `firstSeen` (0 = the move's first lap) comes back after `cycle` laps. */
  | { endless: true; firstSeen: number; cycle: number };

/** Relays from `from` until a lap ends in an empty pit, or a lap start repeats. */
export function refRelay(board: readonly number[], from: number): RefRelay {
  const pits = board.slice();
  const seen = new Map<string, number>();
  let start = from;
  let seedsSown = 0;
  for (let lap = 0; ; lap++) {
    const key = `${pits.join(',')}|${start}`;
    const firstSeen = seen.get(key);
    if (firstSeen !== undefined) return { endless: true, firstSeen, cycle: lap - firstSeen };
    seen.set(key, lap);
    seedsSown += pits[start] as number;
    const end = refSowLap(pits, start);
    if (pits[end] === 1) return { endless: false, laps: lap + 1, seedsSown, end, pits };
    start = end;
  }
}

const rowSum = (pits: readonly number[], player: 0 | 1): number =>
  pits.slice(player * 6, player * 6 + 6).reduce((a, b) => a + b, 0);

/** Plays `action` without asking whether the game is over; the reason if it is illegal. */
export function refPlay(
  s: RefState,
  action: number,
  captureSeedStays: boolean,
): RefMove | RefReason {
  const mover = s.toMove;
  const opponent = (1 - mover) as 0 | 1;
  const from = mover * 6 + action;
  if (s.pits[from] === 0) return 'empty-pit';
  const opponentWasEmpty = rowSum(s.pits, opponent) === 0;
  const relay = refRelay(s.pits, from);
  if (relay.endless) return 'endless-relay';
  const pits = relay.pits;
  const stores: [number, number] = [s.stores[0], s.stores[1]];
  let captured = 0;
  let capturedFrom: number | null = null;
  const facing = 11 - relay.end;
  if (Math.floor(relay.end / 6) === mover && (pits[facing] as number) > 0) {
    captured = pits[facing] as number;
    pits[facing] = 0;
    if (!captureSeedStays) {
      pits[relay.end] = 0;
      captured += 1;
    }
    stores[mover] += captured;
    capturedFrom = facing;
  }
  if (opponentWasEmpty && rowSum(pits, opponent) === 0) return 'does-not-feed';
  return {
    state: { pits, stores, toMove: opponent },
    laps: relay.laps,
    seedsSown: relay.seedsSown,
    endPit: relay.end,
    captured,
    capturedFrom,
  };
}

/** The legal actions, ascending. */
export function refLegal(s: RefState, captureSeedStays: boolean): number[] {
  if (s.stores[0] >= 25 || s.stores[1] >= 25) return [];
  return [0, 1, 2, 3, 4, 5].filter((a) => typeof refPlay(s, a, captureSeedStays) !== 'string');
}

/** The result of `action`, or why it is illegal (reasons in the order docs/rules.md reports them). */
export function refMove(
  s: RefState,
  action: number,
  captureSeedStays: boolean,
): RefMove | RefReason {
  if (refLegal(s, captureSeedStays).length === 0) return 'game-over';
  return refPlay(s, action, captureSeedStays);
}

/** Final [score0, score1] after any sweep, or null while the game goes on. */
export function refOutcome(
  s: RefState,
  captureSeedStays: boolean,
  leftoverTo: 'opponent' | 'owner',
): [number, number] | null {
  if (s.stores[0] >= 25 || s.stores[1] >= 25) return [s.stores[0], s.stores[1]];
  if (refLegal(s, captureSeedStays).length > 0) return null;
  const row0 = rowSum(s.pits, 0);
  const row1 = rowSum(s.pits, 1);
  if (leftoverTo === 'owner') return [s.stores[0] + row0, s.stores[1] + row1];
  return s.toMove === 0
    ? [s.stores[0], s.stores[1] + row0 + row1]
    : [s.stores[0] + row0 + row1, s.stores[1]];
}
