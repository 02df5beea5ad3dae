/** Seeded sample positions and games for the engine's tests. */
import {
  applyAction,
  initialPosition,
  legalActions,
  type Position,
  position,
  Random,
  type RulesInput,
} from '../../env/index.ts';

/**
 * A random legal-looking position: `onBoard` seeds dropped one by one into
 * uniformly drawn pits, the rest split at random between the stores (which may
 * then hold 25 or more: finished positions are part of the sample).
 */
export function randomPosition(rng: Random, onBoard: number = 2 + rng.int(47)): Position {
  const pits = new Array<number>(12).fill(0);
  for (let k = 0; k < onBoard; k++) {
    const pit = rng.int(12);
    pits[pit] = (pits[pit] as number) + 1;
  }
  const store0 = rng.int(48 - onBoard + 1);
  return position({ pits, stores: [store0, 48 - onBoard - store0], toMove: rng.int(2) });
}

export interface Game {
  /** Every position of the game, the start first and the final one last. */
  positions: Position[];
  actions: number[];
}

/** A complete game from the start, each action uniform among the legal ones. */
export function randomGame(seed: number, rules?: RulesInput): Game {
  const rng = Random.fromSeed(seed);
  const positions = [initialPosition()];
  const actions: number[] = [];
  for (;;) {
    const pos = positions[positions.length - 1] as Position;
    const legal = legalActions(pos, rules);
    if (legal.length === 0) return { positions, actions };
    const action = rng.pick(legal);
    actions.push(action);
    positions.push(applyAction(pos, action, rules));
  }
}
