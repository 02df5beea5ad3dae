/**
 * The rooms of train/ (docs/architecture.md), from the ground up: a file may
 * import its own room and the rooms below it. The algorithms' folders sit
 * above the machinery they call by name and are reached only through their
 * registration (train/builtin-algorithms.ts): nothing else in the repository
 * imports from them (tests and experiment scripts aside).
 */
import { dirname, join, normalize } from 'node:path';
import { importsOf, type SourceFile } from './layers.ts';

/** The rooms, lowest first; a path ending in / is a folder. */
export const TRAIN_ROOMS: readonly (readonly string[])[] = [
  // What every part shares: errors, what an iteration reports, memory parts, the settings' shape.
  ['train/errors.ts', 'train/iteration-stats.ts', 'train/memory/', 'train/settings/'],
  // The shared machinery: self-play in shards, the update's gradients.
  ['train/shards/', 'train/gradients/'],
  // The plug-in: what an algorithm is, and the registry of them.
  ['train/algorithm/'],
  // The run's worker threads.
  ['train/threads/'],
  // A run's config, built from layers with the registered algorithms.
  ['train/config/'],
  // The algorithms.
  ['train/expert-iteration/', 'train/ppo/'],
  // Their registration.
  ['train/builtin-algorithms.ts'],
  ['train/learner.ts'],
  ['train/run/'],
  ['train/report/'],
  ['train/training-loop.ts'],
  ['train/trainer.ts'],
  ['train/index.ts'],
];

/** The folders of the built-in algorithms, and the one file that may import them from outside. */
export const ALGORITHM_FOLDERS = ['train/expert-iteration/', 'train/ppo/'] as const;
export const REGISTRATION = 'train/builtin-algorithms.ts';

const inRoom = (path: string, room: string): boolean =>
  room.endsWith('/') ? path.startsWith(room) : path === room;

/** The room of a train/ file (its index in TRAIN_ROOMS), or -1. */
export function roomOf(path: string): number {
  return TRAIN_ROOMS.findIndex((rooms) => rooms.some((room) => inRoom(path, room)));
}

function targetOf(file: SourceFile, specifier: string): string | null {
  if (!specifier.startsWith('.')) return null;
  return normalize(join(dirname(file.path), specifier)).replaceAll('\\', '/');
}

/** Every train/ file in no room, and every import of a train/ file from a room above its own. */
export function roomViolations(files: readonly SourceFile[]): string[] {
  const problems: string[] = [];
  for (const file of files) {
    if (!file.path.startsWith('train/')) continue;
    const from = roomOf(file.path);
    if (from < 0) {
      problems.push(`${file.path}: in no room of train/ (test/architecture/train-rooms.ts)`);
      continue;
    }
    for (const specifier of importsOf(file)) {
      const target = targetOf(file, specifier);
      if (target === null || !target.startsWith('train/')) continue;
      const to = roomOf(target);
      if (to > from) {
        problems.push(`${file.path} -> ${specifier}: a room of train/ imports one above it`);
      }
    }
  }
  return problems;
}

/** Every import of an algorithm's folder from outside it but the registration's. */
export function algorithmImports(files: readonly SourceFile[]): string[] {
  const problems: string[] = [];
  for (const file of files) {
    if (file.path === REGISTRATION) continue;
    for (const specifier of importsOf(file)) {
      const target = targetOf(file, specifier);
      if (target === null) continue;
      const folder = ALGORITHM_FOLDERS.find((f) => target.startsWith(f));
      if (folder !== undefined && !file.path.startsWith(folder)) {
        problems.push(
          `${file.path} -> ${specifier}: ${folder} is reached only through ${REGISTRATION}`,
        );
      }
    }
  }
  return problems;
}
