/**
 * Trained networks and policy files: loading policy files and checkpoints,
 * the plain Float32Array runner, the policy's move choice, the tfjs network,
 * inference on onnxruntime-node, exports (ONNX, TF.js, JSON). The agents that
 * play with a network are agents/network/'s (the `ayoayo/agents` entry).
 */

export { type LoadedBackend, loadBackend } from './backend.ts';
export {
  BackendError,
  CheckpointError,
  PolicyFileError,
  type PolicyFileReason,
  WeightDataError,
} from './errors.ts';
export { type BrowserPolicy, decodeBrowserPolicy } from './export/browser-policy.ts';
export { type ExportOptions, type ExportResult, exportPolicy } from './export/export-policy.ts';
export { EXPORT_FORMATS, type ExportFormat } from './export/manifest.ts';
export { type LoadedPolicy, loadPolicy, resolvePolicyPath } from './load-policy.ts';
export {
  type Activation,
  argmaxLegal,
  type DenseWeights,
  MlpRunner,
  type MlpWeights,
  maskedSoftmax,
  NUM_ACTIONS,
} from './mlp-runner.ts';
export {
  decodePolicyFile,
  makePolicyFile,
  type PolicyFile,
  policyFileSchema,
} from './policy-file.ts';
export { PolicyMoveChooser } from './policy-move.ts';
export {
  createPolicyValueModel,
  type NetworkConfig,
  networkConfigSchema,
} from './policy-value-model.ts';
export { readPolicyFile } from './read-policy-file.ts';
