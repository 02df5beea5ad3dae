import { existsSync, realpathSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import {
  type AccuracySet,
  AccuracySetError,
  parseAccuracySet,
  readAccuracySet,
} from './accuracy-set.ts';
import { readSetFile, setContentSha256 } from './set-file.ts';

/**
 * The accuracy sets that ship beside the pretrained policy (docs/accuracy.md):
 * `main`, the set agents and training are measured on, and `holdout`, a larger
 * one from other games, kept out of every tuning decision to confirm that a
 * number holds on positions nobody looked at.
 */
export const ACCURACY_SETS: Readonly<Record<string, string>> = {
  main: fileURLToPath(new URL('./sets/main.jsonl', import.meta.url)),
  holdout: fileURLToPath(new URL('./sets/holdout.jsonl', import.meta.url)),
};

/**
 * The sha256 of each shipped set's content (setContentSha256: `sha256sum` of
 * the file as the repository holds it). A set's own checksum only shows that
 * its lines were not edited by hand: values planted with the checksum made
 * again pass it, and every agent would then be scored against them. These
 * are part of the code, so a set changed where it is installed is refused.
 */
export const SHIPPED_SET_SHA256: Readonly<Record<string, string>> = {
  main: '881853c06a4c4a6b8176ac4956a602b378e083f0e96f5c79472e62e6cd80cbb3',
  holdout: '16f87af206b6bd1879edd3688812a3bbe091a913bfafdf0169ec031094dc2f20',
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

/**
 * Reads the shipped set `name` from `path` (by default where it ships), after
 * checking its content against SHIPPED_SET_SHA256: a changed file is refused
 * in one line naming it. A copy with CRLF line ends or a byte order mark is
 * the same content (see setLines).
 */
export function readShippedAccuracySet(
  name: string,
  path: string = ACCURACY_SETS[name] as string,
): AccuracySet {
  const pinned = SHIPPED_SET_SHA256[name];
  if (pinned === undefined) throw new RangeError(`'${name}' is not a shipped accuracy set`);
  const text = readSetFile(path);
  const sha256 = setContentSha256(text);
  if (sha256 !== pinned) {
    throw new AccuracySetError(
      `accuracy set '${name}' (${path}) was changed: its sha256 is ${sha256.slice(0, 12)}..., not the ${pinned.slice(0, 12)}... this version of ayoayo ships; restore it (git checkout -- eval/accuracy/sets/${name}.jsonl in a clone, or install ayoayo again)`,
    );
  }
  return parseAccuracySet(text, path);
}

/** The shipped set a file is, by its real path (a set named by its path is checked as one). */
function shippedName(path: string): string | undefined {
  let real: string;
  try {
    real = realpathSync(path);
  } catch {
    return undefined;
  }
  return Object.keys(ACCURACY_SETS).find((name) => {
    try {
      return realpathSync(ACCURACY_SETS[name] as string) === real;
    } catch {
      return false;
    }
  });
}

const cache = new Map<string, AccuracySet>();

/**
 * Reads (once per process) the set a set argument names; see accuracySetPath.
 * A shipped set is checked against its pinned hash (readShippedAccuracySet),
 * a user's file by its own checksum only (readAccuracySet; `ayoayo accuracy
 * --verify` re-solves its positions).
 */
export function loadAccuracySet(set: string): AccuracySet {
  const path = accuracySetPath(set);
  let loaded = cache.get(path);
  if (loaded === undefined) {
    const shipped = shippedName(path);
    loaded = shipped !== undefined ? readShippedAccuracySet(shipped, path) : readAccuracySet(path);
    cache.set(path, loaded);
  }
  return loaded;
}
