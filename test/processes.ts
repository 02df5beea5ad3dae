import { readdirSync, readFileSync } from 'node:fs';

/** Pids of the processes whose command line contains `text` (Linux /proc; arguments are NUL-separated there). */
export function pidsRunning(text: string): number[] {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .filter((d) => {
      try {
        return readFileSync(`/proc/${d}/cmdline`, 'utf8').includes(text);
      } catch {
        return false;
      }
    })
    .map(Number);
}

/**
 * Whether process group `pgid` still has a running member (Linux /proc). Zombies do not count:
 * a killed process whose parent has exited waits for init to reap it, dead but still signalable.
 */
export function groupRunning(pgid: number): boolean {
  return readdirSync('/proc')
    .filter((d) => /^\d+$/.test(d))
    .some((d) => {
      try {
        const stat = readFileSync(`/proc/${d}/stat`, 'utf8');
        // Fields after the command's closing parenthesis: state, ppid, pgrp, ...
        const [state, , pgrp] = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
        return Number(pgrp) === pgid && state !== 'Z';
      } catch {
        return false;
      }
    });
}
