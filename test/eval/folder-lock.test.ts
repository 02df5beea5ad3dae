import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  realpathSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  checkFolderUnlocked,
  FolderLockError,
  folderLockHolder,
  lockFileOf,
  lockFolder,
} from '../../files/folder-lock.ts';

/** A lock file as another process would have left it. */
function leaveLock(dir: string, fields: Record<string, unknown>): void {
  writeFileSync(
    lockFileOf(dir),
    JSON.stringify({
      pid: 1,
      host: hostname(),
      command: 'ayoayo train --name x',
      since: '2026-01-01T00:00:00.000Z',
      started: null,
      token: 'other',
      ...fields,
    }),
  );
}

/** The pid of a process that has ended. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', 'process.stdout.write(String(process.pid))'], {
    encoding: 'utf8',
  });
  return Number(child.stdout);
}

describe('folder locks', () => {
  it('one holder at a time, in this process too; released, the folder is free again', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'ayoayo-lock-unit-')), 'run');
    const lock = lockFolder(dir, 'run');
    expect(lock.file).toBe(lockFileOf(dir));
    expect(folderLockHolder(dir)?.pid).toBe(process.pid);
    expect(() => lockFolder(dir, 'run')).toThrow(FolderLockError);
    expect(() => checkFolderUnlocked(dir, 'run')).toThrow(
      new RegExp(`^run ${dir} is in use by pid ${process.pid} \\(.*\\), since \\d{4}-`),
    );
    lock.release();
    lock.release();
    expect(existsSync(lockFileOf(dir))).toBe(false);
    expect(folderLockHolder(dir)).toBeNull();
    lockFolder(dir, 'run').release();
  });

  it('locks a folder under every name: a symbolic link to it, or to its parent, names the same lock', () => {
    const parent = realpathSync(mkdtempSync(join(tmpdir(), 'ayoayo-lock-link-')));
    const real = join(parent, 'runs', 'real');
    mkdirSync(real, { recursive: true });
    symlinkSync(real, join(parent, 'runs', 'alias'));
    symlinkSync(join(parent, 'runs'), join(parent, 'runs-link'));
    const lock = lockFolder(real, 'run');
    for (const other of [join(parent, 'runs', 'alias'), join(parent, 'runs-link', 'real')]) {
      expect(lockFileOf(other)).toBe(lock.file);
      expect(() => lockFolder(other, 'run')).toThrow(FolderLockError);
    }
    // A folder not made yet, under a linked parent: its lock is beside its real place too.
    expect(lockFileOf(join(parent, 'runs-link', 'new'))).toBe(join(parent, 'runs', '.new.lock'));
    lock.release();
  });

  it('takes over a lock whose holder is gone: a dead pid, a pid now of another process, a damaged file', () => {
    const parent = mkdtempSync(join(tmpdir(), 'ayoayo-lock-unit-'));
    const cases: Record<string, Record<string, unknown> | string> = {
      dead: { pid: deadPid() },
      // This very process, but started at another time: its pid was reused.
      reused: { pid: process.pid, started: '1' },
      damaged: '{"pid": 12',
    };
    for (const [name, fields] of Object.entries(cases)) {
      const dir = join(parent, name);
      if (typeof fields === 'string') writeFileSync(lockFileOf(dir), fields);
      else leaveLock(dir, fields);
      expect(folderLockHolder(dir), name).toBeNull();
      const lock = lockFolder(dir, 'run');
      expect(JSON.parse(readFileSync(lockFileOf(dir), 'utf8')).pid, name).toBe(process.pid);
      lock.release();
    }
  });

  it('names a holder on another host, whose pid it cannot check, and says how to free it', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'ayoayo-lock-unit-')), 'run');
    leaveLock(dir, { host: 'elsewhere', pid: 4242 });
    expect(() => lockFolder(dir, 'run')).toThrow(
      `run ${dir} is in use by pid 4242 on host elsewhere (ayoayo train --name x), since 2026-01-01T00:00:00.000Z: if that process is gone, remove ${lockFileOf(dir)}`,
    );
  });

  it('hides URL passwords in the command it records', () => {
    const dir = join(mkdtempSync(join(tmpdir(), 'ayoayo-lock-unit-')), 'run');
    const argv = process.argv;
    process.argv = [
      argv[0] as string,
      '/x/bin/ayoayo.js',
      'sweep',
      '--queue',
      'redis://:s3cret@h:6379',
    ];
    try {
      const lock = lockFolder(dir, 'sweep');
      expect(folderLockHolder(dir)?.command).toBe('ayoayo sweep --queue redis://:***@h:6379');
      lock.release();
    } finally {
      process.argv = argv;
    }
  });
});
