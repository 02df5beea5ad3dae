import type { PolicySearchResult } from '../agents/network/policy-search.ts';
import type { Rules } from '../env/index.ts';

/** What a service's search thread is made of: the policy, and the `--search` text. */
export interface SearchThreadSetup {
  /** The policy file, checkpoint or run folder the service answers with (read again in the thread). */
  readonly policyPath: string;
  /** `perfect`, or a PUCT search's `az:` options (`sims=200`, `t=50ms,solve=1`, `''`). */
  readonly search: string;
}

/** A task for the search thread: get ready (load the policy and the search's tables), or search a position. */
export type SearchTask =
  | { readonly kind: 'ready' }
  | { readonly kind: 'search'; readonly position: string; readonly rules: Rules };

/** The thread's answer: ready (with the search's name), what it found, or a position it refuses and why. */
export type SearchAnswer =
  | { readonly kind: 'ready'; readonly label: string }
  | { readonly kind: 'found'; readonly result: PolicySearchResult }
  | { readonly kind: 'refused'; readonly message: string };
