import { observationSize } from '../env/gym/observation.ts';
import { NUM_ACTIONS } from '../models/mlp-runner.ts';
import { algorithmOf } from './algorithms.ts';
import { observationOf, type SharedSettings, type TrainConfig } from './config/schema.ts';
import { type MemoryEstimate, type MemoryPart, parameters, part, total } from './memory-parts.ts';

export type { MemoryEstimate, MemoryPart } from './memory-parts.ts';

/**
 * The network and its update: the weights in tfjs with Adam's two moments,
 * the gradient session's copy with its gradients, one copy a thread that runs
 * it, and a minibatch's activations forward and back.
 */
function networkPart(config: SharedSettings, threads: number): MemoryPart {
  const inputs = observationSize(observationOf(config));
  const weights = parameters(inputs, config.hidden) * 4;
  const widths = config.hidden.reduce((sum, width) => sum + width, inputs + NUM_ACTIONS + 1);
  const activations = config.minibatchSize * widths * 4 * 4;
  return part('the network and its update', weights * (5 + threads) + activations, {
    hidden: config.hidden,
    minibatchSize: config.minibatchSize,
  });
}

/**
 * The memory a whole run of `config` needs on one machine, from its settings
 * alone: an estimate of the arrays that grow with them (its algorithm's own,
 * such as games in progress, search trees and a replay window, and the
 * network's), so that a run that would exhaust the machine is refused before
 * it allocates them.
 */
export function estimateRunMemory(config: TrainConfig): MemoryEstimate {
  const threads = Math.max(1, config.workers);
  const own = algorithmOf(config).memory(config);
  return total([...own, networkPart(config, threads)], threads);
}
