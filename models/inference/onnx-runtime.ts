/**
 * onnxruntime-node, an optional dependency, loaded once per thread. Its CPU
 * binaries ship inside the npm package; where the package is missing or its
 * native module does not load, the project falls back to tfjs and the plain
 * runner (inference-engine.ts).
 *
 * The package's public `InferenceSession.run` is asynchronous, though the
 * native session under it runs synchronously: it only defers the call to the
 * next turn of the event loop. A search evaluates its leaves synchronously, so
 * the project calls the native session wrapper directly (its `binding`
 * module, exact version pinned in package.json), which also lets it give
 * preallocated output tensors that onnxruntime writes into.
 */

/** A tensor of onnxruntime-common, as the native session takes and returns them. */
export interface OrtTensor {
  readonly data: Float32Array;
  readonly dims: readonly number[];
}

interface OrtTensorConstructor {
  new (type: 'float32', data: Float32Array, dims: readonly number[]): OrtTensor;
}

/** The options of the native session, as onnxruntime's SessionOptions. */
export interface OrtSessionOptions {
  readonly intraOpNumThreads: number;
  readonly interOpNumThreads: number;
  readonly executionMode: 'sequential';
  readonly graphOptimizationLevel: 'all';
  readonly executionProviders: readonly string[];
  /** Session config entries (onnxruntime's `session.*` keys), values as strings. */
  readonly extra?: {
    readonly session: { readonly intra_op: { readonly allow_spinning: '0' | '1' } };
  };
}

/**
 * One thread's session options: one intra-op thread, since the project runs
 * its searches, self-play shards, tournaments and the trainer's update on
 * threads and processes of their own, one session each.
 */
export const ONE_THREAD_SESSION: OrtSessionOptions = {
  intraOpNumThreads: 1,
  interOpNumThreads: 1,
  executionMode: 'sequential',
  graphOptimizationLevel: 'all',
  executionProviders: ['cpu'],
};

/** onnxruntime-node's synchronous native session. */
export interface OrtNativeSession {
  loadModel(
    buffer: ArrayBuffer,
    byteOffset: number,
    byteLength: number,
    options: OrtSessionOptions,
  ): void;
  run(
    feeds: Readonly<Record<string, OrtTensor>>,
    fetches: Readonly<Record<string, OrtTensor | null>>,
    options: Readonly<Record<string, never>>,
  ): Record<string, OrtTensor>;
  dispose(): void;
}

/** What the project uses of onnxruntime-node. */
export interface OnnxRuntime {
  /** onnxruntime-node's version, e.g. 1.30.0. */
  readonly version: string;
  readonly Tensor: OrtTensorConstructor;
  /** An empty native session, to load a model into. */
  newSession(): OrtNativeSession;
}

/** onnxruntime-node loaded, or why not (one line). */
export type OnnxRuntimeLoad =
  | { readonly runtime: OnnxRuntime; readonly reason: null }
  | { readonly runtime: null; readonly reason: string };

interface PackageModule {
  readonly Tensor?: OrtTensorConstructor;
  readonly env?: { readonly versions?: { readonly node?: string } };
}

interface BindingModule {
  readonly binding?: { readonly InferenceSession?: new () => OrtNativeSession };
  readonly initOrt?: () => void;
}

let loading: Promise<OnnxRuntimeLoad> | null = null;

/** onnxruntime-node, loaded at the first call of this thread; never throws. */
export function loadOnnxRuntime(): Promise<OnnxRuntimeLoad> {
  loading ??= load();
  return loading;
}

async function load(): Promise<OnnxRuntimeLoad> {
  try {
    // Names held in variables keep the type checker and bundlers from requiring the optional package.
    const packageName = 'onnxruntime-node';
    const bindingName = 'onnxruntime-node/dist/binding.js';
    const pkg = (await import(packageName)) as PackageModule & { default?: PackageModule };
    const bindingModule = (await import(bindingName)) as BindingModule & {
      default?: BindingModule;
    };
    const Tensor = pkg.Tensor ?? pkg.default?.Tensor;
    const version = pkg.env?.versions?.node ?? pkg.default?.env?.versions?.node ?? 'unknown';
    const binding = bindingModule.binding ?? bindingModule.default?.binding;
    const initOrt = bindingModule.initOrt ?? bindingModule.default?.initOrt;
    const Session = binding?.InferenceSession;
    if (Tensor === undefined || Session === undefined || initOrt === undefined) {
      return {
        runtime: null,
        reason: `onnxruntime-node ${version} has no synchronous native session (the project pins 1.30.0)`,
      };
    }
    initOrt();
    return { runtime: { version, Tensor, newSession: () => new Session() }, reason: null };
  } catch (error) {
    return { runtime: null, reason: whyNotLoaded(error) };
  }
}

/** One line saying why the package did not load. */
function whyNotLoaded(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  const message = error instanceof Error ? error.message : String(error);
  const firstLine = message.split('\n')[0]?.trim() ?? '';
  if (
    (code === 'ERR_MODULE_NOT_FOUND' || code === 'MODULE_NOT_FOUND') &&
    firstLine.includes('onnxruntime-node')
  ) {
    return 'onnxruntime-node is not installed';
  }
  return `onnxruntime-node failed to load (${firstLine})`;
}
