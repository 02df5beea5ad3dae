import type { Position } from '../env/index.ts';
import type { Agent, AgentContext } from './agent.ts';

/** Uniform over the legal actions: the floor every other agent must clear. */
export class RandomAgent implements Agent {
  readonly name: string;

  constructor(name = 'random') {
    this.name = name;
  }

  act(_position: Position, ctx: AgentContext): number {
    return ctx.rng.pick(ctx.legal);
  }
}
