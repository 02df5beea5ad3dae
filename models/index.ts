/**
 * Trained policies without the training loop: loading policy files and
 * checkpoints, the plain Float32Array runner, the policy's move choice, the
 * tfjs network, exports (ONNX, TF.js, JSON). As the package's `ayoayo/models`
 * entry it registers the agent kinds that load a network (`policy:PATH`,
 * `az:...`, `minimax:...,eval=PATH`) and the solver-backed kinds' endgame
 * tables with agents/ (see policy-kind.ts), so that importing it is enough.
 */
import { registerNetworkKinds } from './policy-kind.ts';

registerNetworkKinds();

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
export { loadPolicyAgent, PolicyAgent } from './policy-agent.ts';
export {
  decodePolicyFile,
  makePolicyFile,
  type PolicyFile,
  policyFileSchema,
} from './policy-file.ts';
export { registerNetworkKinds } from './policy-kind.ts';
export { PolicyMoveChooser } from './policy-move.ts';
export {
  createPolicyValueModel,
  type NetworkConfig,
  networkConfigSchema,
} from './policy-value-model.ts';
export { readPolicyFile } from './read-policy-file.ts';
