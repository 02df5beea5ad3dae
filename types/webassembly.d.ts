/**
 * The part of the WebAssembly JavaScript API that bench/wasm-playouts.ts uses.
 * Node has the global, but the ES2023 library and @types/node leave it
 * undeclared (it lives in TypeScript's DOM library, which this project does
 * not load).
 */
declare namespace WebAssembly {
  type ExportValue = ((...args: number[]) => number | undefined) | object;
  type Exports = Record<string, ExportValue>;
  class Module {
    constructor(bytes: Uint8Array);
  }
  class Instance {
    constructor(module: Module, imports: Record<string, Record<string, unknown>>);
    readonly exports: Exports;
  }
}
