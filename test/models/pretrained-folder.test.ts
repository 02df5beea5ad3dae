import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { exportPolicy } from '../../models/export/export-policy.ts';
import { describeWithSystemPackage, PYTHON_NUMPY } from '../system-packages.ts';

const PRETRAINED = fileURLToPath(new URL('../../models/pretrained/', import.meta.url));
const CLIENT = fileURLToPath(new URL('../../examples/python/client.py', import.meta.url));
const EXPORTED_FILES = ['features.md', 'manifest.json', 'policy.json', 'vectors.json'];

describe('models/pretrained', () => {
  it('is exactly what `ayoayo export --format json` writes for its policy today', async () => {
    const shipped = JSON.parse(readFileSync(join(PRETRAINED, 'manifest.json'), 'utf8')) as {
      exportedAt: string;
    };
    const out = mkdtempSync(join(tmpdir(), 'ayoayo-pretrained-'));
    const result = await exportPolicy({
      from: join(PRETRAINED, 'policy.json'),
      format: 'json',
      out,
      now: new Date(shipped.exportedAt),
    });
    expect([...result.files].sort()).toEqual(EXPORTED_FILES);
    expect(readdirSync(out).sort()).toEqual(EXPORTED_FILES);
    // Byte for byte: the encoder vectors a client checks itself against are
    // the engine's and the shipped network's, and every file the manifest names is there.
    for (const file of EXPORTED_FILES) {
      expect(readFileSync(join(PRETRAINED, file), 'utf8'), file).toBe(
        readFileSync(join(out, file), 'utf8'),
      );
    }
  });

  describeWithSystemPackage(PYTHON_NUMPY, 'the Python client on models/pretrained', () => {
    it("passes the Python client's own check against its vectors.json", () => {
      const run = spawnSync('python3', [CLIENT, PRETRAINED], { encoding: 'utf8', timeout: 60_000 });
      expect(run.stderr).toBe('');
      expect(run.stdout).toContain(
        'OK: 64 positions, features (thermometer + lookahead, 278 each), probabilities and values agree',
      );
      expect(run.status).toBe(0);
    });
  });
});
