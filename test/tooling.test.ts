import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it, vi } from 'vitest';
import { CliError, errorLine, runCommand, UsageError } from '../cli/fail.ts';

const bin = fileURLToPath(new URL('../bin/ayoayo.js', import.meta.url));
const root = fileURLToPath(new URL('..', import.meta.url));
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';

function ayoayo(...args: string[]) {
  return spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', timeout: 60_000 });
}

describe('bin/ayoayo.js launcher', () => {
  it('exists', () => {
    expect(existsSync(bin)).toBe(true);
  });

  it('prints help and exits 0', () => {
    const r = ayoayo('--help');
    expect(r.error).toBeUndefined();
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('ayoayo');
  });

  it('reports an unknown command on one line and exits 1', () => {
    const r = ayoayo('bogus');
    expect(r.status).toBe(1);
    expect(r.stdout).toBe('');
    const lines = r.stderr.trimEnd().split('\n');
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^ayoayo: .*bogus.*--help/);
  });
});

describe("the project's npm configuration", () => {
  it('gives npm nothing to warn about when running a script', () => {
    // Without the config a parent npm (npm test) exported, so that only the project's own is read.
    const env = Object.fromEntries(
      Object.entries(process.env).filter(([key]) => !key.toLowerCase().startsWith('npm_')),
    );
    const r = spawnSync(npm, ['run', 'ayoayo', '--', '--help'], {
      cwd: root,
      env,
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(r.status).toBe(0);
    expect(r.stdout).toContain('ayoayo');
    expect(r.stderr).not.toMatch(/npm warn/i);
  }, 60_000);

  it("denies onnxruntime-node's install script, which only fetches GPU extras and fails offline", () => {
    // npm skips a dependency's scripts that allowScripts denies: without this, an offline
    // `npm ci` drops the optional package and the networks run on the slower fallback.
    const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
      allowScripts?: Record<string, boolean>;
    };
    expect(pkg.allowScripts?.['onnxruntime-node']).toBe(false);
  });
});

describe('cli/fail.ts', () => {
  it('formats errors as one line', () => {
    expect(errorLine(new Error('first\n  second\n'))).toBe('first; second');
    expect(errorLine(new Error('Invalid values:\n  Argument: preset\nthird'))).toBe(
      'Invalid values: Argument: preset; third',
    );
    expect(errorLine(new CliError('no such file'))).toBe('no such file');
    expect(errorLine(new UsageError('bad move'))).toBe("bad move (run 'ayoayo --help' for usage)");
    expect(errorLine('plain')).toBe('plain');
  });

  it('runCommand reports a thrown error and exits 1', async () => {
    const exit = vi.spyOn(process, 'exit').mockImplementation(() => undefined as never);
    const write = vi.spyOn(process.stderr, 'write').mockImplementation(() => true);
    try {
      await runCommand(async () => {
        throw new CliError('boom');
      })({});
      expect(write).toHaveBeenCalledWith('ayoayo: boom\n');
      expect(exit).toHaveBeenCalledWith(1);
    } finally {
      exit.mockRestore();
      write.mockRestore();
    }
  });
});
