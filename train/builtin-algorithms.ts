import { algorithmNamed, registerAlgorithm } from './algorithm/registry.ts';
import { expertIteration } from './expert-iteration/algorithm.ts';
import { policyGradient } from './ppo/algorithm.ts';

export type { ExpertIterationSettings } from './expert-iteration/settings.ts';
export type { PpoSettings } from './ppo/settings.ts';

/**
 * Registers the algorithms that come with ayoayo: PPO and REINFORCE first
 * (`ppo` is the algorithm of a run that names none), then expert iteration.
 * The one place that names them: the entry points that meet training
 * configs call it (the `ayoayo/train` entry on import, the command line,
 * the queue's worker), and worker threads call it again through its source.
 * Calling it twice changes nothing.
 */
export function registerBuiltinAlgorithms(): void {
  if (algorithmNamed('ppo') !== undefined) return;
  const source = { module: import.meta.url, register: 'registerBuiltinAlgorithms' };
  registerAlgorithm(policyGradient, source);
  registerAlgorithm(expertIteration, source);
}
