import { observationSize } from '../../env/gym/observation.ts';
import { NUM_ACTIONS } from '../../models/mlp-runner.ts';
import { algorithmOf } from '../algorithm/registry.ts';
import { type MemoryEstimate, type MemoryPart, parameters, part, total } from '../memory/parts.ts';
import { observationOf, type SharedSettings, type TrainConfig } from '../settings/schema.ts';
import { runWorkers } from '../threads/run-workers.ts';

export type { MemoryEstimate, MemoryPart } from '../memory/parts.ts';

/**
 * The network and its update: the weights in tfjs with Adam's two moments
 * and a step's gradients, the step's copy of the weights, and a minibatch's
 * rows and activations forward and back. One gradient session (a run without
 * `updateSlices`) holds a copy of the weights a thread that runs it; slices
 * (sliced-gradients.ts) add, on each thread that computes them, a session's
 * weights, its gradients and its copy of the minibatch's rows, and in shared
 * memory each slice's gradients and the minibatch's rows once more.
 */
function networkPart(config: SharedSettings, threads: number): MemoryPart {
  const inputs = observationSize(observationOf(config));
  const weights = parameters(inputs, config.hidden) * 4;
  const widths = config.hidden.reduce((sum, width) => sum + width, inputs + NUM_ACTIONS + 1);
  const activations = config.minibatchSize * widths * 4 * 4;
  const rows = config.minibatchSize * (inputs + 3 * NUM_ACTIONS + 3) * 4;
  const slices = config.updateSlices;
  const bytes =
    slices === null
      ? weights * (5 + threads) + activations + rows
      : weights * (6 + 2 * threads + slices) + activations + rows * (2 + threads);
  return part('the network and its update', bytes, {
    hidden: config.hidden,
    minibatchSize: config.minibatchSize,
    updateSlices: slices,
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
  const threads = Math.max(1, runWorkers(config));
  const own = algorithmOf(config).memory(config, threads);
  return total([...own, networkPart(config, threads)], threads);
}
