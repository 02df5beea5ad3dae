/**
 * The errors models/ reports for bad input: a user's mistake (a missing, corrupt
 * or incompatible file, an unavailable backend), told apart from a bug by its
 * class. Free of imports so the CLI can recognise them cheaply.
 */

/** Why a policy file cannot be used. */
export type PolicyFileReason = 'missing' | 'unreadable' | 'corrupt' | 'incompatible' | 'not-sent';

/**
 * A policy file (or folder) that does not exist, cannot be read, is corrupt or
 * does not fit; or, on a queue worker, one its job did not carry.
 */
export class PolicyFileError extends Error {
  override name = 'PolicyFileError';
  constructor(
    readonly reason: PolicyFileReason,
    message: string,
  ) {
    super(message);
  }
}

/** A training checkpoint that is missing, corrupt (checksum, JSON, non-finite weights) or incompatible. */
export class CheckpointError extends Error {
  override name = 'CheckpointError';
}

/** Encoded weights (base64 float32) that are malformed, of the wrong length or not finite. */
export class WeightDataError extends Error {
  override name = 'WeightDataError';
}

/** A tfjs backend that is not installed here, fails to start, or conflicts with the one loaded. */
export class BackendError extends Error {
  override name = 'BackendError';
}

/**
 * An inference backend that cannot run here: `--inference onnx` (or
 * AYOAYO_INFERENCE=onnx) without a working onnxruntime-node, or a choice that
 * names no backend.
 */
export class InferenceError extends Error {
  override name = 'InferenceError';
}

/**
 * Bad options of a network search given outside an agent spec (`ayoayo serve
 * --search`); an agent spec's errors are AgentSpecErrors.
 */
export class NetworkSpecError extends Error {
  override name = 'NetworkSpecError';
}
