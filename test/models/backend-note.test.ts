import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cacheDir, wasmBackendNoteOnce } from '../../models/backend.ts';

const scratch = mkdtempSync(join(tmpdir(), 'ayoayo-backend-note-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('the note that training runs on wasm', () => {
  it('is given once per user, with how to get the native backend', () => {
    const env = { XDG_CACHE_HOME: join(scratch, 'once') };
    const first = wasmBackendNoteOnce('wasm', 'auto', env);
    expect(first).toMatch(/training runs on tfjs's wasm backend/);
    expect(first).toContain('npm install @tensorflow/tfjs-node');
    expect(existsSync(join(cacheDir(env), 'wasm-backend-noted'))).toBe(true);
    expect(wasmBackendNoteOnce('wasm', 'auto', env)).toBeNull();
  });

  it('is not given when tfjs-node runs or another backend was chosen on purpose', () => {
    const env = { XDG_CACHE_HOME: join(scratch, 'never') };
    expect(wasmBackendNoteOnce('tensorflow', 'auto', env)).toBeNull();
    expect(wasmBackendNoteOnce('wasm', 'wasm', env)).toBeNull();
    expect(wasmBackendNoteOnce('cpu', 'cpu', env)).toBeNull();
    expect(existsSync(cacheDir(env))).toBe(false);
  });

  it('is still given when the cache folder cannot be written', () => {
    const blocked = join(scratch, 'a-file');
    writeFileSync(blocked, '');
    const env = { XDG_CACHE_HOME: blocked };
    expect(wasmBackendNoteOnce('wasm', 'auto', env)).not.toBeNull();
    expect(wasmBackendNoteOnce('wasm', 'auto', env)).not.toBeNull();
  });

  it('lives under ~/.cache/ayoayo without XDG_CACHE_HOME', () => {
    expect(cacheDir({})).toMatch(/[/\\]\.cache[/\\]ayoayo$/);
  });
});
