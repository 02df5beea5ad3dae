// An agent kind of test/eval/parsed-specs.test.ts that records the thread its spec was parsed in.
import { threadId } from 'node:worker_threads';
import { agentKind, registerAgentKinds } from '../../agents/spec.ts';

declare module '../../agents/agent-kinds.ts' {
  interface AgentSpecs {
    'test-parsed-in': { readonly parsedIn: number };
  }
}

/** Registers `parsedin`, here and (by its source) on every worker thread. */
export function registerParsedInKind(): void {
  registerAgentKinds({
    kinds: [
      agentKind({
        kind: 'test-parsed-in',
        name: 'parsedin',
        forms: ['parsedin'],
        parse: () => ({ parsedIn: threadId }),
        // It plays the first legal move, if its spec was parsed in the main thread.
        create: (spec, { name }) => ({
          name,
          act: (_position, { legal }) => {
            if (spec.parsedIn !== 0) throw new Error(`parsed again in thread ${spec.parsedIn}`);
            return legal[0] as number;
          },
        }),
      }),
    ],
    source: { module: import.meta.url, register: 'registerParsedInKind' },
  });
}
