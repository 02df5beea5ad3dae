import { readFileSync } from 'node:fs';

/** A process's start time in clock ticks after boot (field 22 of /proc/PID/stat); null off Linux. */
export function processStart(pid: number): string | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) is in parentheses and may hold spaces: count after its end.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return fields[19] ?? null;
  } catch {
    return null;
  }
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: alive, but another user's.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether the process `pid` that started at `started` (processStart) still
 * runs: a pid the system gave to another process since is not it.
 */
export function stillRuns(pid: number, started: string | null): boolean {
  if (!isAlive(pid)) return false;
  return started === null || processStart(pid) === started;
}
