import { readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { processStart, stillRuns } from '../files/process-identity.ts';

/** The temporary runs folders of a worker's training runs (queue/train-job.ts). */
export const TEMP_RUN_PREFIX = 'ayoayo-sweep';

/**
 * The prefix of a temporary folder of this process (mkdtemp adds the rest):
 * `ayoayo-sweep-<pid>-<start>-`, so that a later worker can tell a folder
 * whose process died (a `kill -9` runs no cleanup) from one in use.
 */
export function tempFolderPrefix(kind: string): string {
  return `${kind}-${process.pid}-${processStart(process.pid) ?? 'x'}-`;
}

/**
 * Removes the temporary folders of `kind` in the system's temp folder whose
 * process no longer runs (killed mid-job), and says how many went; those of
 * running processes, this one's included, stay.
 */
export function removeOrphanFolders(kind: string, dir = tmpdir()): string[] {
  const pattern = new RegExp(`^${kind}-(\\d+)-(\\d+|x)-`);
  const removed: string[] = [];
  for (const name of readdirSync(dir)) {
    const match = pattern.exec(name);
    if (match === null) continue;
    const started = match[2] === 'x' ? null : (match[2] as string);
    if (stillRuns(Number(match[1]), started)) continue;
    rmSync(join(dir, name), { recursive: true, force: true });
    removed.push(join(dir, name));
  }
  return removed;
}
