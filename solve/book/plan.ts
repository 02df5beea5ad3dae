import { core, type Rules, ruleCode } from '../../env/index.ts';
import { compareKeys, KEY_BYTES } from './format.ts';

const { ACTIONS, STATE_SIZE, expand, legalMask, setInitial } = core;

/** A state as a map key (its 15 meaningful bytes). */
export function stateKey(state: Uint8Array): string {
  return String.fromCharCode(...state.subarray(0, STATE_SIZE - 1));
}

/** The keys (KEY_BYTES each) of a level, as a set of stateKeys. */
export function keySet(level: Uint8Array): Set<string> {
  const keys = new Set<string>();
  for (let at = 0; at < level.length; at += KEY_BYTES) {
    keys.add(stateKey(level.subarray(at, at + KEY_BYTES)));
  }
  return keys;
}

/** Keys (KEY_BYTES each, pad byte 0) sorted in byte order. */
function sortedKeys(states: Uint8Array[]): Uint8Array {
  states.sort((a, b) => compareKeys(a, 0, b, 0));
  const out = new Uint8Array(states.length * KEY_BYTES);
  states.forEach((s, i) => {
    out.set(s.subarray(0, KEY_BYTES - 1), i * KEY_BYTES);
  });
  return out;
}

/**
 * The positions a book of `plies` plies holds, by the ply each is first
 * reached at: levels[k] holds the unfinished positions reached in k plies
 * from the start and in no fewer, each once however it is reached (keys
 * sorted, KEY_BYTES each). The last level is the leaves, solved with every
 * move's value; every move of a position of an earlier level leads to a
 * finished game or to a position of the book.
 */
export function bookLevels(rules: Rules, plies: number): Uint8Array[] {
  const code = ruleCode(rules);
  const seen = new Set<string>();
  const start = setInitial(new Uint8Array(STATE_SIZE));
  seen.add(stateKey(start));
  let level = [start];
  const levels = [sortedKeys([start])];
  const children = new Uint8Array(ACTIONS * STATE_SIZE);
  const status = new Uint8Array(ACTIONS);
  for (let ply = 1; ply <= plies; ply++) {
    const next: Uint8Array[] = [];
    for (const s of level) {
      const mask = expand(s, code, children, status);
      for (let a = 0; a < ACTIONS; a++) {
        if ((mask & (1 << a)) === 0) continue;
        const child = children.slice(a * STATE_SIZE, (a + 1) * STATE_SIZE);
        child[STATE_SIZE - 1] = 0;
        // A finished game has no entry: its value is its result.
        if (legalMask(child, code) === 0) continue;
        const key = stateKey(child);
        if (seen.has(key)) continue;
        seen.add(key);
        next.push(child);
      }
    }
    levels.push(sortedKeys(next));
    level = next;
  }
  return levels;
}

/** Positions in each level of a plan, for messages and docs. */
export function levelSizes(levels: readonly Uint8Array[]): number[] {
  return levels.map((l) => l.length / KEY_BYTES);
}
