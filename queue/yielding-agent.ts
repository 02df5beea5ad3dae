import type { Agent } from '../agents/agent.ts';

/** Longest stretch of synchronous play before the worker lets its event loop run. */
const YIELD_EVERY_MS = 50;

/**
 * Wraps an agent so that play gives the event loop a turn every
 * YIELD_EVERY_MS: BullMQ renews a job's lock on a timer, and a chunk of
 * synchronous search moves would otherwise starve it until the job is taken
 * for stalled and handed to another worker while it still runs.
 */
export function yieldingAgent(agent: Agent): Agent {
  let last = performance.now();
  const act: Agent['act'] = (position, ctx) => {
    if (performance.now() - last < YIELD_EVERY_MS) return agent.act(position, ctx);
    return new Promise<void>((resolve) => setImmediate(resolve)).then(() => {
      last = performance.now();
      return agent.act(position, ctx);
    });
  };
  return {
    name: agent.name,
    act,
    ...(agent.newGame !== undefined ? { newGame: () => agent.newGame?.() } : {}),
    ...(agent.estimateValue !== undefined
      ? { estimateValue: agent.estimateValue.bind(agent) }
      : {}),
    ...(agent.close !== undefined ? { close: () => agent.close?.() } : {}),
  };
}
