import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** Where the trainer ships the pretrained policy (an ayoayo-policy file). */
export const PRETRAINED_POLICY = fileURLToPath(
  new URL('../pretrained/policy.json', import.meta.url),
);

/**
 * The policy a command uses: the one asked for, else the shipped pretrained
 * policy when it is there, else none (the caller says what to do instead).
 */
export function choosePolicyPath(requested: string | undefined): string | null {
  if (requested !== undefined) return requested;
  return existsSync(PRETRAINED_POLICY) ? PRETRAINED_POLICY : null;
}
