/**
 * agents/' own agent kinds, in the order help lists them: those that run
 * anywhere (browser-kinds.ts), the perfect player (perfect-kind.ts) and
 * external engines, the kind that runs commands. The command line's registry
 * starts with them (spec.ts).
 */

import { type AnyAgentKind, agentKind } from './agent-kinds.ts';
import type { CreateAgentOptions } from './agent-options.ts';
import { BROWSER_KINDS } from './browser-kinds.ts';
import { ExternalAgent } from './external.ts';
import { perfectKind } from './perfect-kind.ts';
import { requiredArgument } from './spec-options.ts';

declare module './agent-kinds.ts' {
  interface AgentSpecs {
    ext: { readonly command: string };
  }
}

const ext = agentKind<'ext', CreateAgentOptions>({
  kind: 'ext',
  forms: ['ext:COMMAND'],
  parse: (argument, fail) => ({
    command: requiredArgument(argument, 'ext needs a command, e.g. ext:python3 engine.py', fail),
  }),
  // A command line may hold any commas.
  continues: () => true,
  runsCommands: true,
  create: (spec, { name, options }) =>
    new ExternalAgent(spec.command, {
      name,
      ...(options.moveTimeoutMs !== undefined ? { moveTimeoutMs: options.moveTimeoutMs } : {}),
      ...(options.startupMs !== undefined ? { startupMs: options.startupMs } : {}),
    }),
});

/** agents/' kinds, in the order help lists them. */
export const BUILTIN_KINDS: readonly AnyAgentKind<CreateAgentOptions>[] = [
  ...BROWSER_KINDS,
  perfectKind,
  ext,
];
