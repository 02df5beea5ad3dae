import type { RolloutBuffer } from './rollout-buffer.ts';

/**
 * Generalised advantage estimation along each player's own chain of moves.
 * A chain's next sample always has a larger index, so one backward pass works.
 */
export function computeAdvantages(buffer: RolloutBuffer, gamma: number, lambda: number): void {
  const { values, rewards, dones, next, bootstrap, advantages, returns } = buffer;
  for (let k = buffer.size - 1; k >= 0; k--) {
    const n = next[k] as number;
    const done = dones[k] === 1;
    const nextValue = done ? 0 : n >= 0 ? (values[n] as number) : (bootstrap[k] as number);
    const delta = (rewards[k] as number) + gamma * nextValue - (values[k] as number);
    const carry = !done && n >= 0 ? (advantages[n] as number) : 0;
    advantages[k] = delta + gamma * lambda * carry;
    returns[k] = (advantages[k] as number) + (values[k] as number);
  }
}

/**
 * The trainer's advantage estimate for a rollout: GAE with the run's gamma and
 * lambda for PPO, full Monte Carlo returns (lambda = 1) for REINFORCE.
 */
export function estimateAdvantages(
  buffer: RolloutBuffer,
  algorithm: 'ppo' | 'reinforce',
  settings: { readonly gamma: number; readonly gaeLambda: number },
): void {
  computeAdvantages(buffer, settings.gamma, algorithm === 'reinforce' ? 1 : settings.gaeLambda);
}
