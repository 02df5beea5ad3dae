import '../setup/builtin-algorithms.ts';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildConfig } from '../../train/config/build.ts';
import { removeRun } from '../../train/run/paths.ts';

function cli(...args: string[]) {
  return spawnSync('node', ['bin/ayoayo.js', 'train', ...args], { encoding: 'utf8' });
}

/** A project-like folder: runs/ inside it, and a file that must survive. */
function project(): { root: string; runs: string; precious: string } {
  const root = mkdtempSync(join(tmpdir(), 'ayoayo-runs-'));
  const runs = join(root, 'runs');
  mkdirSync(runs);
  const precious = join(root, 'precious.txt');
  writeFileSync(precious, 'keep me');
  return { root, runs, precious };
}

describe('run names and --overwrite', () => {
  it.each(['.', '..'])('refuses the run name %j', (name) => {
    expect(() => buildConfig([{ name }])).toThrow(/name: must be a folder name, not \. or \.\./);
  });

  it("'train --name .. --overwrite' deletes nothing and exits 1 with one line", () => {
    const { runs, precious } = project();
    const r = cli('--preset', 'smoke', '--runs-dir', runs, '--name', '..', '--overwrite');
    expect(r.status).toBe(1);
    expect(r.stderr.trim()).toMatch(/^ayoayo: invalid config: name: must be a folder name/);
    expect(existsSync(precious)).toBe(true);
    expect(existsSync(runs)).toBe(true);
  });

  it('deletes a run folder, but refuses a folder that is not a run', () => {
    const { runs } = project();
    const run = join(runs, 'old');
    mkdirSync(join(run, 'checkpoints'), { recursive: true });
    writeFileSync(join(run, 'config.json'), '{}');
    removeRun({ runsDir: runs, name: 'old' });
    expect(existsSync(run)).toBe(false);
    removeRun({ runsDir: runs, name: 'never-existed' });

    const notRun = join(runs, 'photos');
    mkdirSync(notRun);
    writeFileSync(join(notRun, 'a.jpg'), 'x');
    expect(() => removeRun({ runsDir: runs, name: 'photos' })).toThrow(
      /--overwrite refuses to delete .*photos: it does not look like a training run/,
    );
    expect(existsSync(join(notRun, 'a.jpg'))).toBe(true);
    expect(() => removeRun({ runsDir: runs, name: '..' })).toThrow(/not a plain folder name/);
    expect(existsSync(runs)).toBe(true);
  });

  it("'train --overwrite' on a folder that is not a run exits 1 and keeps it", () => {
    const { runs } = project();
    mkdirSync(join(runs, 'notes'));
    writeFileSync(join(runs, 'notes', 'todo.txt'), 'x');
    const r = cli('--preset', 'smoke', '--runs-dir', runs, '--name', 'notes', '--overwrite');
    expect(r.status).toBe(1);
    expect(r.stderr).toMatch(/does not look like a training run/);
    expect(existsSync(join(runs, 'notes', 'todo.txt'))).toBe(true);
  });
});
