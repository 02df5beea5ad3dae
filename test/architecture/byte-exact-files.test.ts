import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

// Files the code reads byte for byte: the accuracy sets are pinned by their
// sha256, models/pretrained is compared with what `ayoayo export` writes, the
// fixtures are hashed or run. A checkout with core.autocrlf (Windows) must not
// turn their line ends into CRLF.
const BYTE_EXACT = [
  'eval/accuracy/sets/main.jsonl',
  'eval/accuracy/sets/holdout.jsonl',
  'models/pretrained/policy.json',
  'models/pretrained/vectors.json',
  'models/pretrained/features.md',
  'test/fixtures/vectors/rules.jsonl',
  'test/fixtures/train/recorded-runs.json',
  'test/fixtures/ext-engines/engine.py',
];

describe('.gitattributes', () => {
  it('keeps the files read byte for byte out of line-end conversion', () => {
    const run = spawnSync('git', ['check-attr', 'text', '--', ...BYTE_EXACT], {
      cwd: root,
      encoding: 'utf8',
    });
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout.trim().split('\n')).toEqual(BYTE_EXACT.map((f) => `${f}: text: unset`));
  });
});
