import { core, type Position, ruleCode } from '../env/index.ts';
import type { Agent, AgentContext } from './agent.ts';

const { STATE_SIZE, STORE_0, playInPlace } = core;

/** The action that puts the most seeds in the mover's store at once; ties at random. */
export class GreedyAgent implements Agent {
  readonly name: string;
  readonly #state = new Uint8Array(STATE_SIZE);
  readonly #scratch = new Uint8Array(STATE_SIZE);
  readonly #best: number[] = [];

  constructor(name = 'greedy') {
    this.name = name;
  }

  act(position: Position, ctx: AgentContext): number {
    const state = this.#state;
    state.set(position.stateView);
    const storeIndex = STORE_0 + position.toMove;
    const before = state[storeIndex] as number;
    const best = this.#best;
    best.length = 0;
    let bestGain = -1;
    const code = ruleCode(ctx.rules);
    for (const action of ctx.legal) {
      this.#scratch.set(state);
      playInPlace(this.#scratch, action, code);
      const gain = (this.#scratch[storeIndex] as number) - before;
      if (gain > bestGain) {
        bestGain = gain;
        best.length = 0;
      }
      if (gain === bestGain) best.push(action);
    }
    return ctx.rng.pick(best);
  }
}
