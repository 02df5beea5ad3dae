/**
 * The tfjs backends a run or a process may ask for (`auto`: tfjs-node where
 * it loads, else wasm, else cpu). Apart from backend.ts, which loads them, so
 * that the declarations of what only names a choice carry no tfjs types.
 */
export const BACKEND_CHOICES = ['auto', 'tensorflow', 'wasm', 'cpu'] as const;
export type BackendChoice = (typeof BACKEND_CHOICES)[number];
