/**
 * The `perfect` agent kind (agents/perfect.ts): the opening book under the
 * game's rules (the package's for the default rules, else the cache's, built
 * there on first use) and the endgame table the registry gives (the user's
 * cache's unless a registration gives others). A queue worker reads its own:
 * both derive from the code's version.
 */
import { loadBook } from '../solve/book/cache/load-book.ts';
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
  check: async (_spec, { rules, endgame }) => {
    endgame.prepare(rules);
    await loadBook(rules);
  },
  create: async (_spec, { name, rules, endgame }) =>
    new PerfectAgent({
      name,
      rules,
      book: await loadBook(rules),
      endgame: endgame.load(rules),
    }),
});
