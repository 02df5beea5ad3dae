/**
 * The `perfect` agent kind (agents/perfect.ts): the opening book under the
 * game's rules (the package's for the default rules, else the cache's, built
 * there on first use) and the endgame table, both from the user's cache, so a
 * queue worker reads its own (they are derived from the code's version).
 */
import { loadBook } from '../solve/book/cache/load-book.ts';
import {
  cacheSolvingAgentEndgame,
  solvingAgentEndgame,
} from '../solve/endgame/cache/shared-tables.ts';
import { agentKind } from './agent-kinds.ts';
import { PerfectAgent } from './perfect.ts';

declare module './agent-kinds.ts' {
  interface AgentSpecs {
    perfect: Record<never, never>;
  }
}

export const perfectKind = agentKind({
  kind: 'perfect',
  forms: ['perfect'],
  parse: (argument, fail) => {
    if (argument !== null) throw fail('perfect takes no argument');
    return {};
  },
  check: async (_spec, { rules }) => {
    cacheSolvingAgentEndgame(rules);
    await loadBook(rules);
  },
  create: async (_spec, { name, rules }) =>
    new PerfectAgent({
      name,
      rules,
      book: await loadBook(rules),
      endgame: solvingAgentEndgame(rules),
    }),
});
