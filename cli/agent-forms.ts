import { registerNetworkKinds } from '../agents/network/kinds.ts';
import { agentSpecForms } from '../agents/spec.ts';

/**
 * Every agent spec form, those of the kinds that load a network included, for
 * a command's help: yargs builds a command's help before its handler (which
 * registers those kinds, main.ts) runs.
 */
export function agentFormsForHelp(): string {
  registerNetworkKinds();
  return agentSpecForms().join(', ');
}
