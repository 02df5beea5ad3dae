import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { commandName, commands } from '../../cli/commands/index.ts';
import { ayoayoVersion } from '../../queue/version.ts';

const root = fileURLToPath(new URL('../..', import.meta.url));
const recorder = fileURLToPath(new URL('./fixtures/record-imports.mjs', import.meta.url));

/** Runs cli/main.ts from the sources; returns its output and every file module it loaded. */
function runRecorded(...args: string[]): {
  status: number | null;
  stdout: string;
  loaded: string[];
} {
  const dir = mkdtempSync(join(tmpdir(), 'ayoayo-imports-'));
  const record = join(dir, 'loaded.txt');
  try {
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', '--import', recorder, 'cli/main.ts', ...args],
      {
        cwd: root,
        encoding: 'utf8',
        timeout: 60_000,
        env: { ...process.env, RECORD_IMPORTS: record },
      },
    );
    const loaded = readFileSync(record, 'utf8')
      .split('\n')
      .filter((url) => url !== '')
      .map((url) => fileURLToPath(url).slice(root.length));
    return { status: run.status, stdout: run.stdout, loaded };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const HEAVY = /node_modules\/(@tensorflow|zod|piscina|bullmq|ioredis|esbuild|vega|onnx)/;

describe('the command table (cli/commands/index.ts)', () => {
  it("names and describes each command as the command's own module does", async () => {
    const names = commands.map(commandName);
    expect(new Set(names).size).toBe(names.length);
    for (const entry of commands) {
      const module = await entry.load();
      expect({ command: module.command, describe: module.describe }).toEqual({
        command: entry.command,
        describe: entry.describe,
      });
    }
  });

  it('ayoayo --help lists every command without loading any command module or heavy package', () => {
    const { status, stdout, loaded } = runRecorded('--help');
    expect(status).toBe(0);
    for (const entry of commands) expect(stdout).toContain(`ayoayo ${entry.command}`);
    expect(loaded).toContain('cli/main.ts');
    expect(loaded.filter((file) => file.startsWith('cli/commands/'))).toEqual([
      'cli/commands/index.ts',
    ]);
    expect(loaded.filter((file) => HEAVY.test(file))).toEqual([]);
  });

  it("a command's --help loads that command alone, and not the network agent kinds", () => {
    const { status, stdout, loaded } = runRecorded('show', '--help');
    expect(status).toBe(0);
    expect(stdout).toContain('ayoayo show [position]');
    expect(loaded.filter((file) => file.startsWith('cli/commands/')).sort()).toEqual([
      'cli/commands/index.ts',
      'cli/commands/show.ts',
    ]);
    expect(loaded).not.toContain('agents/network/kinds.ts');
  });

  it('ayoayo --version prints the release and the code fingerprint, alone or after a command', () => {
    for (const args of [['--version'], ['show', '--version']]) {
      const { status, stdout } = runRecorded(...args);
      expect(status).toBe(0);
      expect(stdout.trim()).toBe(ayoayoVersion());
    }
  });
});
