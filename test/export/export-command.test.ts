import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { writeRandomPolicy } from './random-policy.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));

function ayoayo(...args: string[]) {
  return spawnSync(process.execPath, ['bin/ayoayo.js', ...args], {
    cwd: root,
    encoding: 'utf8',
    timeout: 60_000,
  });
}

describe('ayoayo export', () => {
  it('writes the chosen format and lists the files', () => {
    const dir = mkdtempSync(join(tmpdir(), 'ayoayo-export-cli-'));
    const from = writeRandomPolicy(join(dir, 'in'));
    const out = join(dir, 'out');
    const run = ayoayo('export', '--from', from, '--format', 'onnx', '--out', out);
    expect(run.stderr).toBe('');
    expect(run.status).toBe(0);
    expect(run.stdout).toContain('(run random-test-policy, iteration 3) as onnx');
    expect(run.stdout).toContain(join(out, 'model.onnx'));
    expect(run.stdout).toContain(join(out, 'manifest.json'));
    expect(existsSync(join(out, 'model.onnx'))).toBe(true);
  });

  it('fails with one line on stderr, no stack trace, for a missing policy', () => {
    const run = ayoayo(
      'export',
      '--from',
      '/no/such/policy',
      '--format',
      'json',
      '--out',
      '/tmp/x',
    );
    expect(run.status).toBe(1);
    expect(run.stderr).toBe('ayoayo: policy /no/such/policy does not exist\n');
    expect(run.stdout).toBe('');
  });
});
