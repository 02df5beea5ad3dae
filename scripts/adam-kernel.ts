// Builds Adam's WebAssembly kernel (train/gradients/adam-kernel/adam.c) into
// adam-wasm.ts (scripts/wasm-module.ts says how):
//   npm run build:adam-kernel
// test/train/adam-kernel.test.ts checks that the committed bytes are this
// build's, wherever clang is installed.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWhenRun, compileWasmModule, type WasmModule } from './wasm-module.ts';

const folder = fileURLToPath(new URL('../train/gradients/adam-kernel/', import.meta.url));

export const ADAM_KERNEL: WasmModule = {
  script: 'build:adam-kernel',
  builder: 'scripts/adam-kernel.ts',
  source: join(folder, 'adam.c'),
  // SIMD, and no contraction into fused multiply-adds.
  flags: ['-O3', '-msimd128', '-ffp-contract=off', '-Wl,--export=__heap_base'],
  output: join(folder, 'adam-wasm.ts'),
  constant: 'ADAM_WASM',
  description: "Adam's WebAssembly kernel (adam.c)",
};

/** The kernel's bytes, or a sentence saying which compiler is missing. */
export function compileAdamKernel(): Uint8Array | string {
  return compileWasmModule(ADAM_KERNEL);
}

buildWhenRun(ADAM_KERNEL, import.meta.url);
