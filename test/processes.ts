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
