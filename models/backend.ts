import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type * as tfType from '@tensorflow/tfjs';
import { cacheDir } from '../files/cache-dir.ts';
import type { BackendChoice } from './backend-choice.ts';
import { BackendError } from './errors.ts';

export { cacheDir };

export type Tf = typeof tfType;

export interface LoadedBackend {
  readonly tf: Tf;
  /** The backend tfjs runs on: 'tensorflow' (tfjs-node), 'wasm' or 'cpu'. */
  readonly name: string;
}

let loaded: Promise<LoadedBackend> | null = null;
let loadedChoice: BackendChoice | null = null;

/**
 * tfjs with the fastest backend available: native `@tensorflow/tfjs-node` when it
 * is installed (an optional dependency, whose install fails where libtensorflow
 * cannot be downloaded), else `@tensorflow/tfjs` on wasm (SIMD), else cpu.
 * Loaded once per process; asking again for another backend is an error.
 */
export function loadBackend(choice: BackendChoice = 'auto'): Promise<LoadedBackend> {
  if (loaded !== null) {
    if (choice !== 'auto' && loadedChoice !== choice && loadedChoice !== 'auto') {
      throw new BackendError(
        `tfjs backend already loaded as '${loadedChoice}', cannot switch to '${choice}'`,
      );
    }
    return loaded;
  }
  loadedChoice = choice;
  loaded = initialise(choice);
  return loaded;
}

async function initialise(choice: BackendChoice): Promise<LoadedBackend> {
  if (choice === 'auto' || choice === 'tensorflow') {
    const native = await importNative();
    if (native !== null) {
      await native.setBackend('tensorflow');
      await native.ready();
      return { tf: native, name: 'tensorflow' };
    }
    if (choice === 'tensorflow') {
      throw new BackendError(
        'backend tensorflow needs @tensorflow/tfjs-node, which is not installed here',
      );
    }
  }
  const tf = await import('@tensorflow/tfjs');
  if (choice === 'auto' || choice === 'wasm') {
    try {
      await import('@tensorflow/tfjs-backend-wasm');
      if (await tf.setBackend('wasm')) {
        await tf.ready();
        patchWasmBatchMatMul(tf);
        return { tf, name: 'wasm' };
      }
    } catch (error) {
      if (choice === 'wasm')
        throw new BackendError(`wasm backend failed to start: ${String(error)}`);
    }
    if (choice === 'wasm') throw new BackendError('wasm backend failed to start');
  }
  await tf.setBackend('cpu');
  await tf.ready();
  return { tf, name: 'cpu' };
}

async function importNative(): Promise<Tf | null> {
  try {
    // A string held in a variable keeps bundlers and the type checker from
    // requiring the optional package.
    const name = '@tensorflow/tfjs-node';
    return (await import(name)) as Tf;
  } catch {
    return null;
  }
}

/**
 * The note that training runs on wasm because `@tensorflow/tfjs-node` is not
 * installed, returned once per user (a marker file in the cache folder records
 * that it was shown); null when the native backend runs, when it was chosen
 * away from on purpose, or when the note was shown before. Without a writable
 * cache folder the note is shown every time rather than never.
 */
export function wasmBackendNoteOnce(
  backend: string,
  choice: BackendChoice,
  env: NodeJS.ProcessEnv = process.env,
): string | null {
  if (backend === 'tensorflow' || choice !== 'auto') return null;
  const dir = cacheDir(env);
  const marker = join(dir, 'wasm-backend-noted');
  if (existsSync(marker)) return null;
  try {
    mkdirSync(dir, { recursive: true });
    writeFileSync(marker, `${new Date().toISOString()}\n`);
  } catch {
    // Shown again next time: better than never.
  }
  return [
    `note: training runs on tfjs's ${backend} backend because @tensorflow/tfjs-node is not installed.`,
    '  The native TensorFlow backend (x86-64 Linux, macOS, Windows) is usually faster:',
    '  npm install @tensorflow/tfjs-node (its install downloads libtensorflow), then train again.',
    `  This note is shown once (delete ${marker} to see it again).`,
  ].join('\n');
}

interface KernelArgs {
  inputs: Record<string, unknown>;
  backend: unknown;
  attrs?: Record<string, unknown>;
}
interface TensorInfoLike {
  dataId: object;
  shape: number[];
  dtype: string;
}
type KernelFn = (args: KernelArgs) => TensorInfoLike | TensorInfoLike[];

/**
 * The wasm backend's BatchMatMul runs about ten times slower with transposeA/B
 * than on inputs transposed first, and Dense layers' gradients use those flags.
 * Re-register the kernel so it transposes explicitly, then multiplies plainly.
 */
function patchWasmBatchMatMul(tf: Tf): void {
  const matMul = tf.getKernel('BatchMatMul', 'wasm');
  const transpose = tf.getKernel('Transpose', 'wasm');
  if (matMul === undefined || transpose === undefined) return;
  const matMulFn = matMul.kernelFunc as unknown as KernelFn;
  const transposeFn = transpose.kernelFunc as unknown as KernelFn;
  const swapLast = (x: TensorInfoLike, backend: unknown): TensorInfoLike => {
    const perm = x.shape.map((_, i) => i);
    const n = perm.length;
    [perm[n - 2], perm[n - 1]] = [perm[n - 1] as number, perm[n - 2] as number];
    return transposeFn({ inputs: { x }, backend, attrs: { perm } }) as TensorInfoLike;
  };
  const patched: KernelFn = ({ inputs, backend, attrs }) => {
    const transposeA = attrs?.transposeA === true;
    const transposeB = attrs?.transposeB === true;
    if (!transposeA && !transposeB) return matMulFn({ inputs, backend, attrs });
    const a = inputs.a as TensorInfoLike;
    const b = inputs.b as TensorInfoLike;
    const ta = transposeA ? swapLast(a, backend) : a;
    const tb = transposeB ? swapLast(b, backend) : b;
    const out = matMulFn({
      inputs: { ...inputs, a: ta, b: tb },
      backend,
      attrs: { ...attrs, transposeA: false, transposeB: false },
    });
    const dispose = (backend as { disposeData(id: object): void }).disposeData.bind(backend);
    if (transposeA) dispose(ta.dataId);
    if (transposeB) dispose(tb.dataId);
    return out;
  };
  tf.unregisterKernel('BatchMatMul', 'wasm');
  tf.registerKernel({
    kernelName: 'BatchMatMul',
    backendName: 'wasm',
    kernelFunc: patched as unknown as typeof matMul.kernelFunc,
  });
}
