/**
 * The table slot of a state: a 32-bit mix of its four 32-bit words (the 16
 * bytes of an engine state: pits, stores, player to move and the zero pad).
 *
 * The table keeps each entry's whole state and compares it on every probe, so
 * two states that share a slot cost only a miss, never a wrong answer: the hash
 * need only spread states evenly, not tell them apart. Four multiplications
 * cost less than a Zobrist hash's 28 table reads, and relays change too many
 * pits at once for a Zobrist key to be updated move by move anyway.
 */
export function stateHash(words: Int32Array, at: number): number {
  let h = Math.imul((words[at] as number) ^ 0x9e3779b9, 0x85ebca6b);
  h = Math.imul(h ^ (h >>> 13) ^ (words[at + 1] as number), 0xc2b2ae35);
  h = Math.imul(h ^ (h >>> 16) ^ (words[at + 2] as number), 0x27d4eb2f);
  h = Math.imul(h ^ (h >>> 15) ^ (words[at + 3] as number), 0x165667b1);
  return h ^ (h >>> 16);
}
