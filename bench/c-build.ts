/**
 * Builds the C yardsticks under bench/c: natively with the machine's C
 * compiler into a temporary folder, or for wasm32 with clang (no C library),
 * each returning a sentence saying why not when the compiler is missing.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** A source file under bench/c, as an absolute path. */
export function cSource(file: string): string {
  return fileURLToPath(new URL(`./c/${file}`, import.meta.url));
}

/**
 * Why `command` cannot run here, or null when it runs. A missing compiler is
 * the machine's matter (the benches skip the yardstick); a source that does
 * not build is a bug, and throws.
 */
function missingCompiler(command: string, args: readonly string[]): string | null {
  const ran = spawnSync(command, args, { encoding: 'utf8' });
  if (ran.error === undefined && ran.status === 0) return null;
  return ran.error?.message ?? ran.stderr.trim().split('\n')[0] ?? `exit ${ran.status}`;
}

/** A native build: run its program with arguments, delete it when done. */
export interface NativeProgram {
  /** Runs the program and returns its stdout's lines; throws with its stderr on failure. */
  run(args: readonly string[]): string[];
  dispose(): void;
}

/** Compiles `source` with `cc -O2` (or `$CC`) and `libs`. */
export function buildNative(source: string, libs: readonly string[] = []): NativeProgram | string {
  const cc = process.env.CC ?? 'cc';
  const missing = missingCompiler(cc, ['--version']);
  if (missing !== null) return `no working C compiler (${cc}: ${missing})`;
  const dir = mkdtempSync(join(tmpdir(), 'ayoayo-c-'));
  const exe = join(dir, 'yardstick');
  const built = spawnSync(cc, ['-O2', '-o', exe, source, ...libs], { encoding: 'utf8' });
  if (built.error !== undefined || built.status !== 0) {
    rmSync(dir, { recursive: true, force: true });
    throw new Error(`${source} does not build with ${cc}: ${built.stderr}`);
  }
  return {
    run(args) {
      const out = spawnSync(exe, args, { encoding: 'utf8' });
      if (out.error !== undefined || out.status !== 0) {
        throw new Error(`${source} ${args.join(' ')} failed: ${out.error?.message ?? out.stderr}`);
      }
      return out.stdout.trim().split('\n');
    },
    dispose() {
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

/**
 * Compiles `source` with `clang --target=wasm32 -O2` (or `$WASM_CC`; the link
 * needs Debian's lld too) and `flags`, and instantiates it without imports.
 */
export function buildWasm(
  source: string,
  flags: readonly string[] = [],
): WebAssembly.Exports | string {
  const cc = process.env.WASM_CC ?? 'clang';
  const missing = missingCompiler(cc, ['--version']) ?? missingCompiler('wasm-ld', ['--version']);
  if (missing !== null) return `no wasm32 C compiler (${cc}: ${missing}); install clang and lld`;
  const dir = mkdtempSync(join(tmpdir(), 'ayoayo-wasm-'));
  try {
    const out = join(dir, 'yardstick.wasm');
    const built = spawnSync(
      cc,
      ['--target=wasm32', '-O2', ...flags, '-nostdlib', '-Wl,--no-entry', '-o', out, source],
      { encoding: 'utf8' },
    );
    if (built.error !== undefined || built.status !== 0) {
      throw new Error(`${source} does not build for wasm32 with ${cc}: ${built.stderr}`);
    }
    return new WebAssembly.Instance(new WebAssembly.Module(readFileSync(out)), {}).exports;
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
