import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  type AccuracySet,
  AccuracySetError,
  readAccuracySet,
} from '../eval/accuracy/accuracy-set.ts';

/**
 * The accuracy sets that ship beside the pretrained policy (docs/accuracy.md):
 * `main`, the set agents and training are measured on, and `holdout`, a larger
 * one from other games, kept out of every tuning decision to confirm that a
 * number holds on positions nobody looked at.
 */
export const ACCURACY_SETS: Readonly<Record<string, string>> = {
  main: fileURLToPath(new URL('./accuracy/main.jsonl', import.meta.url)),
  holdout: fileURLToPath(new URL('./accuracy/holdout.jsonl', import.meta.url)),
};

/** What a set argument may be, for messages. */
export const SET_CHOICES = `${Object.keys(ACCURACY_SETS).join(', ')} or a set file (.jsonl)`;

/**
 * The file of a set argument: a shipped set's name, or a path. Throws an
 * AccuracySetError for a name that is neither a shipped set nor a file.
 */
export function accuracySetPath(set: string): string {
  const named = Object.hasOwn(ACCURACY_SETS, set) ? ACCURACY_SETS[set] : undefined;
  if (named !== undefined) {
    if (!existsSync(named)) {
      throw new AccuracySetError(
        `the accuracy set '${set}' is missing: ${named} does not exist (make it with scripts/make-accuracy-fixture.ts)`,
      );
    }
    return named;
  }
  if (!existsSync(set)) {
    throw new AccuracySetError(`unknown accuracy set '${set}': give ${SET_CHOICES}`);
  }
  return set;
}

const cache = new Map<string, AccuracySet>();

/** Reads (once per process) the set a set argument names; see accuracySetPath and readAccuracySet. */
export function loadAccuracySet(set: string): AccuracySet {
  const path = accuracySetPath(set);
  let loaded = cache.get(path);
  if (loaded === undefined) {
    loaded = readAccuracySet(path);
    cache.set(path, loaded);
  }
  return loaded;
}
