/**
 * The policy's part of a gradient graph (gradient-graph.ts), as an algorithm
 * writes its own: its data inputs, its loss and its gradient with respect to
 * the masked logits, its statistics. A term is plain data (the ONNX steps it
 * adds, in order), so that the worker threads that compute an update's
 * slices build the same graph from it without knowing the algorithm.
 *
 * The graph gives a term, beside its own inputs: `log_probs` and `probs`
 * (masked, per action), `p_log_p` (p logp per action), and the constants
 * `one`, `inv_batch` (1 / the minibatch's rows) and `axis_1`. The term
 * writes `policy_loss`, `d_masked_logits` and each of its statistics, its
 * means over the minibatch taken by the graph (which weighs a slice's rows
 * as the whole minibatch's).
 */
import { NUM_ACTIONS } from '../../models/mlp-runner.ts';

/** The graph's data inputs every term has (the weights are inputs too, named as the tfjs layers' variables). */
export const GRADIENT_INPUTS = {
  observation: 'observation',
  mask: 'action_mask',
  valueTarget: 'value_target',
} as const;

/** A sliced graph's scalar input: each row's weight, 1 / the rows of the whole minibatch. */
export const ROW_WEIGHT = 'row_weight';

/** A data input of the gradient graph: its name, row width and description. */
export interface LossInput {
  readonly name: string;
  readonly width: number;
  readonly doc: string;
}

/** One step of a term: an ONNX node (its integer attributes by name), or a mean over the minibatch. */
export type TermStep =
  | {
      readonly op: string;
      readonly inputs: readonly string[];
      readonly output: string;
      readonly attributes?: Readonly<Record<string, number>>;
    }
  | { readonly mean: string; readonly output: string };

/** A policy term of a gradient graph (see above). */
export interface PolicyTerm {
  /** What the loss is called in the graph's description (`search-targets`, `ppo`). */
  readonly name: string;
  /** The weight of the value loss beside the term. */
  readonly valueCoef: number;
  /** The term's own data inputs, beside the observation, mask and value target. */
  readonly inputs: readonly LossInput[];
  /** Its statistics after policy_loss, value_loss and entropy, in the order updaters read them. */
  readonly stats: readonly string[];
  readonly steps: readonly TermStep[];
  /** Scalar float constants its steps read, by name. */
  readonly constants: readonly { readonly name: string; readonly value: number }[];
}

/** What a term's author writes it with. */
export interface TermWriter {
  /** Adds a node; returns its output's name. */
  add(
    op: string,
    inputs: readonly string[],
    output: string,
    attributes?: Record<string, number>,
  ): string;
  /** The mean over the minibatch of `input` (every element), as the scalar `output`. */
  mean(input: string, output: string): string;
  /** A scalar float constant. */
  constant(name: string, value: number): string;
}

/** Writes a term: `write` adds its steps and constants through the writer, in order. */
export function policyTerm(
  head: Pick<PolicyTerm, 'name' | 'valueCoef' | 'inputs' | 'stats'>,
  write: (term: TermWriter) => void,
): PolicyTerm {
  const steps: TermStep[] = [];
  const constants: { name: string; value: number }[] = [];
  write({
    add(op, inputs, output, attributes) {
      steps.push({ op, inputs: [...inputs], output, ...(attributes ? { attributes } : {}) });
      return output;
    },
    mean(input, output) {
      steps.push({ mean: input, output });
      return output;
    },
    constant(name, value) {
      constants.push({ name, value });
      return name;
    },
  });
  return { ...head, steps, constants };
}

/** Every data input of the graph of `term`: the observation, mask and value target, then the term's. */
export function dataInputs(inputSize: number, term: PolicyTerm): LossInput[] {
  return [
    { name: GRADIENT_INPUTS.observation, width: inputSize, doc: 'encoded positions' },
    { name: GRADIENT_INPUTS.mask, width: NUM_ACTIONS, doc: '1 where the action is legal, else 0' },
    { name: GRADIENT_INPUTS.valueTarget, width: 1, doc: 'value targets in [-1, 1]' },
    ...term.inputs,
  ];
}

/** The graph's scalar outputs beside the gradients, in the order updaters read them. */
export function lossStats(term: PolicyTerm): string[] {
  return ['policy_loss', 'value_loss', 'entropy', ...term.stats];
}
