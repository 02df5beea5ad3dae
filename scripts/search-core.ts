// Builds the self-play search core (agents/puct/core/search-core.c) into
// search-core-wasm.ts (scripts/wasm-module.ts says how):
//   npm run build:search-core
// test/train/search-core.test.ts checks that the committed bytes are this
// build's, wherever clang is installed.
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { buildWhenRun, compileWasmModule, type WasmModule } from './wasm-module.ts';

const folder = fileURLToPath(new URL('../agents/puct/core/', import.meta.url));

export const SEARCH_CORE: WasmModule = {
  script: 'build:search-core',
  builder: 'scripts/search-core.ts',
  source: join(folder, 'search-core.c'),
  // SIMD; bulk memory for the copies and fills a C library would give; no
  // contraction into fused multiply-adds, which would round the search's
  // doubles otherwise than TypeScript does.
  flags: ['-O3', '-msimd128', '-mbulk-memory', '-ffp-contract=off', '-Wl,--export=__heap_base'],
  output: join(folder, 'search-core-wasm.ts'),
  constant: 'SEARCH_CORE_WASM',
  description: 'The self-play search core (search-core.c)',
};

/** The core's bytes, or a sentence saying which compiler is missing. */
export function compileSearchCore(): Uint8Array | string {
  return compileWasmModule(SEARCH_CORE);
}

buildWhenRun(SEARCH_CORE, import.meta.url);
