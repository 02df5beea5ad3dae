import { registerNetworkKinds } from '../../agents/network/kinds.ts';
import { type Rules, sameRules } from '../../env/rules.ts';
import type { AccuracySet } from '../../eval/accuracy/accuracy-set.ts';
import { runAccuracy } from '../../eval/accuracy/benchmark.ts';
import { sampleAccuracySet } from '../../eval/accuracy/sample.ts';
import type { AgentAccuracy } from '../../eval/accuracy/score.ts';
import { loadAccuracySet } from '../../eval/accuracy/shipped-sets.ts';

/** The seed of the positions a run's evaluations score the policy on: the same in every run. */
const SAMPLE_SEED = 'training';

/**
 * The positions of the accuracy benchmark's main set (docs/accuracy.md) a
 * training run scores its policy on, `count` of them, the same at every
 * evaluation; null when the set's values are for other rules than the
 * run's (a value is exact only under the rules it was solved with).
 */
export function trainingAccuracySample(count: number, rules: Rules): AccuracySet | null {
  const set = loadAccuracySet('main');
  if (!sameRules(set.rules, rules)) return null;
  return sampleAccuracySet(set, count, SAMPLE_SEED);
}

/**
 * The policy alone (argmax) on the sample: its share of value-losing moves
 * and its value head's sign accuracy. In this thread: a forward pass a
 * position, a fraction of a second for a few hundred.
 */
export async function policyAccuracy(
  policyPath: string,
  sample: AccuracySet,
): Promise<AgentAccuracy> {
  // The `policy:PATH` spec needs the kind registered.
  registerNetworkKinds();
  const report = await runAccuracy({ specs: [`policy:${policyPath}`], set: sample, workers: 0 });
  return report.agents[0] as AgentAccuracy;
}
