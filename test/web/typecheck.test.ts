import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('the page’s sources', () => {
  // The root tsconfig has no DOM types (they would change Node's setTimeout), so
  // the page's DOM code (web/src/*.mts) is checked by its own config, without Node types.
  it('type-check with the DOM library and without Node types (web/tsconfig.json)', () => {
    const run = spawnSync(
      process.execPath,
      ['node_modules/typescript/bin/tsc', '--noEmit', '-p', 'web/tsconfig.json'],
      { cwd: root, encoding: 'utf8', timeout: 60_000 },
    );
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
  });
});
