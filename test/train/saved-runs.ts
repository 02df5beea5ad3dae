import { createHash } from 'node:crypto';
import { cpSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readCheckpoint } from '../../train/run/checkpoint.ts';
import { runPaths } from '../../train/run/paths.ts';

/**
 * Run folders that earlier versions of the trainer saved
 * (test/fixtures/train/README.md), stopped after iteration 2 of 4, with what
 * the uninterrupted run held after iteration 4 in `NAME.expected.json`.
 */
export function savedRuns(folder: string) {
  const fixtures = new URL(`../fixtures/train/${folder}/`, import.meta.url);
  const fixture = (path: string): string => new URL(path, fixtures).pathname;
  return {
    fixture,
    /** A fresh copy of the fixture run `name` in a runs folder of its own. */
    copyRun(name: string): string {
      const runsDir = mkdtempSync(join(tmpdir(), `ayoayo-${folder}-`));
      cpSync(fixture(name), join(runsDir, name), { recursive: true });
      return runsDir;
    },
    expected: (name: string): Ending =>
      JSON.parse(readFileSync(fixture(`${name}.expected.json`), 'utf8')) as Ending,
  };
}

export const readJson = (path: string): Record<string, unknown> =>
  JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>;

/** What a run held at its end: its backend, iteration, and checksums of what it learned. */
export interface Ending {
  readonly backend: string;
  readonly iteration: number;
  readonly weights: string;
  readonly optimizer: string;
  readonly rngState: number[];
  readonly replay: string | null;
  readonly pool: number[];
  readonly samples: number;
}

const sha = (value: unknown): string =>
  createHash('sha256').update(JSON.stringify(value)).digest('hex');

/** What a resumed run ends with, as a fixture's expected.json records it. */
export function ending(runsDir: string, name: string, backend: string): Ending {
  const end = readCheckpoint(runPaths({ runsDir, name }).latest);
  return {
    backend,
    iteration: end.iteration,
    weights: sha(end.weights),
    optimizer: sha(end.optimizer),
    rngState: end.rngState,
    replay: end.replay === null ? null : sha(end.replay),
    pool: end.pool.map((p) => p.iteration),
    samples: end.counters.samples,
  };
}
