import { InferenceError } from '../errors.ts';

/**
 * Which forward pass runs the networks of this process: `auto` (onnxruntime-node
 * where it loads, else the fallback), `onnx` (onnxruntime-node or an error),
 * `tfjs` (the fallback: tfjs on wasm for batches, the plain Float32Array runner
 * for single positions), `plain` (the plain runner for everything).
 */
export const INFERENCE_CHOICES = ['auto', 'onnx', 'tfjs', 'plain'] as const;
export type InferenceChoice = (typeof INFERENCE_CHOICES)[number];

/** The environment variable holding the choice; worker threads and child processes inherit it. */
export const INFERENCE_ENV = 'AYOAYO_INFERENCE';

/** Whether `text` names an inference choice. */
export function isInferenceChoice(text: string): text is InferenceChoice {
  return (INFERENCE_CHOICES as readonly string[]).includes(text);
}

/** The process's inference choice: AYOAYO_INFERENCE, `auto` when unset or empty. */
export function inferenceChoice(env: NodeJS.ProcessEnv = process.env): InferenceChoice {
  const value = env[INFERENCE_ENV];
  if (value === undefined || value === '') return 'auto';
  if (isInferenceChoice(value)) return value;
  throw new InferenceError(
    `${INFERENCE_ENV} must be one of ${INFERENCE_CHOICES.join(', ')}; it is '${value}'`,
  );
}

/**
 * Sets the process's inference choice (the `--inference` flag). It is kept in
 * the environment so that worker threads and child processes started after
 * this call choose alike.
 */
export function setInferenceChoice(choice: InferenceChoice): void {
  process.env[INFERENCE_ENV] = choice;
}
