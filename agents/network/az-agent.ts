/**
 * The agent of an `az:` spec, made from a network and a forward pass: the
 * command line runs the network on its inference backend (search-agents.ts),
 * the browser page on the plain runner; the search is the same. No Node
 * built-in.
 */
import type { ObservationConfig } from '../../env/gym/observation.ts';
import type { Rules } from '../../env/rules.ts';
import type { ForwardPass, MlpWeights } from '../../models/mlp-runner.ts';
import { CachedEvaluator } from '../evaluation-cache.ts';
import type { Evaluator } from '../evaluator.ts';
import { PuctAgent } from '../puct/agent.ts';
import type { PuctLimits, PuctOptions } from '../puct/search.ts';
import type { AzOptions } from './grammar.ts';
import { NetworkEvaluator } from './network-evaluator.ts';

/** Simulations a move when an az spec gives neither sims nor t. */
const DEFAULT_SIMULATIONS = 800;

/** A trained network as a search reads it: its weights and the observation it was trained on. */
export interface SearchNetwork {
  readonly weights: MlpWeights;
  readonly observation: ObservationConfig;
}

/** A PUCT search's budget from az options: t, else sims (default DEFAULT_SIMULATIONS). */
export function azLimits(o: AzOptions): PuctLimits {
  return o.t !== undefined ? { timeMs: o.t } : { simulations: o.sims ?? DEFAULT_SIMULATIONS };
}

/** PUCT's options from az options. */
export function puctOptions(o: AzOptions, rules: Rules): PuctOptions {
  return { rules, exploration: o.c, priorWeight: o.prior, batchSize: o.batch };
}

/** `evaluator` behind an evaluation cache of 2^bits entries (none for 0). */
export function cached(evaluator: Evaluator, bits: number): Evaluator {
  return bits > 0 ? new CachedEvaluator(evaluator, bits) : evaluator;
}

/** The network's evaluator under `rules`, with az's temperature and evaluation cache. */
export function evaluatorWith(
  network: SearchNetwork,
  rules: Rules,
  o: AzOptions,
  forward: ForwardPass,
): Evaluator {
  const evaluator = new NetworkEvaluator(network.weights, network.observation, rules, {
    temperature: o.temp,
    forward,
  });
  return cached(evaluator, o.cache);
}

/** `az:...`: PUCT with the network's priors and value, `forward` running the network. */
export function azAgent(
  name: string,
  network: SearchNetwork,
  o: AzOptions,
  rules: Rules,
  forward: ForwardPass,
  onClose?: () => void,
): PuctAgent {
  return new PuctAgent(evaluatorWith(network, rules, o, forward), {
    name,
    ...puctOptions(o, rules),
    reuseTree: o.reuse,
    gumbel: o.gumbel,
    ...azLimits(o),
    ...(onClose !== undefined ? { onClose } : {}),
  });
}
