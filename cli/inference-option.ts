import {
  INFERENCE_CHOICES,
  INFERENCE_ENV,
  type InferenceChoice,
  isInferenceChoice,
  setInferenceChoice,
} from '../models/inference/choice.ts';

/** `--inference`, for the commands that run a network (train, eval, play, engine, serve, worker). */
export const inferenceOption = {
  type: 'string',
  choices: INFERENCE_CHOICES as readonly InferenceChoice[] as InferenceChoice[],
  describe: `what runs the networks: auto (onnxruntime-node where it loads, else onnx's fallback), onnx, tfjs (tfjs for batches, the plain runner for single positions) or plain; default: ${INFERENCE_ENV} or auto`,
} as const;

/** Makes a command's `--inference`, when given, the process's choice (worker threads inherit it). */
export function applyInferenceOption(argv: Record<string, unknown>): void {
  const choice = argv.inference;
  if (typeof choice === 'string' && isInferenceChoice(choice)) setInferenceChoice(choice);
}
