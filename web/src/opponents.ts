/**
 * The opponents the page offers: every agent kind that runs in a browser,
 * each with its strength settings (the search budget). Each is an agent spec
 * that means on the command line what it means here (`minimax:4`,
 * `az:models/pretrained,sims=200,batch=1,reuse=0,cache=14`), made by the
 * page's registry of agent kinds: the kinds that run anywhere, and the
 * network and perfect kinds with the command line's grammar, made from what
 * the page has (the network it was served, which its specs name
 * `models/pretrained`, and its solver worker).
 */
import { type AgentMakingOptions, agentKind } from '../../agents/agent-kinds.ts';
import { BROWSER_KINDS, perfectGrammar } from '../../agents/browser-kinds.ts';
import { AgentKindRegistry } from '../../agents/kind-registry.ts';
import { azAgent, type SearchNetwork } from '../../agents/network/az-agent.ts';
import { azGrammar, policyGrammar } from '../../agents/network/grammar.ts';
import { PolicyAgent } from '../../agents/network/policy-agent.ts';
import type { Rules } from '../../env/index.ts';
import { plainForward } from '../../models/mlp-runner.ts';
import { type AskPerfectMove, RemotePerfectAgent } from './perfect-opponent.ts';
import { AgentPlayer, type ComputerPlayer } from './players.ts';

/** What the page's specs call the network it was served (the command line's path to the pretrained one). */
export const PAGE_NETWORK = 'models/pretrained';

/** What the page makes its opponents with, besides the rules. */
export interface PageAgentOptions extends AgentMakingOptions {
  /** The network the page was served (its `policy.json`); null without one. */
  readonly network: SearchNetwork | null;
  /** How the page asks its solver worker for the perfect player's moves; null without one. */
  readonly askPerfect: AskPerfectMove | null;
  /** The game's seed: the perfect player's ties. */
  readonly seed: number;
}

/** The network a spec names, which must be the page's. */
function networkNamed(path: string, { network }: PageAgentOptions): SearchNetwork {
  if (network === null) throw new Error('no policy is loaded');
  if (path !== PAGE_NETWORK) {
    throw new Error(`the page plays the network it was served, ${PAGE_NETWORK}, not '${path}'`);
  }
  return network;
}

/** The perfect player, in the page's solver worker. */
const perfect = agentKind<'perfect', PageAgentOptions>({
  ...perfectGrammar,
  create: (_spec, { name, options }) => {
    if (options.askPerfect === null) throw new Error('no solver worker is running');
    return new RemotePerfectAgent(name, options.askPerfect, options.seed);
  },
});

/** The policy alone, named as the command line names it (load-policy-agent.ts): by its path. */
const policy = agentKind<'policy', PageAgentOptions>({
  ...policyGrammar,
  create: (spec, { rules, options }) => {
    const { weights, observation } = networkNamed(spec.path, options);
    return new PolicyAgent(`policy:${spec.path}`, weights, observation, rules);
  },
});

/** PUCT with the network, one leaf at a time on the plain Float32Array runner (no tfjs in the page). */
const az = agentKind<'az', PageAgentOptions>({
  ...azGrammar,
  create: (spec, { name, rules, options }) => {
    const network = networkNamed(spec.path, options);
    return azAgent(name, network, spec.options, rules, plainForward(network.weights));
  },
});

/** The page's registry of agent kinds. */
export const PAGE_AGENT_KINDS = new AgentKindRegistry<PageAgentOptions>({
  kinds: [...BROWSER_KINDS, perfect, policy, az],
});

export type OpponentKind = 'perfect' | 'policy' | 'az' | 'random' | 'greedy' | 'minimax' | 'mcts';

export interface Strength {
  /** The agent spec, e.g. `minimax:4`. */
  readonly spec: string;
  readonly label: string;
}

export interface OpponentChoice {
  readonly kind: OpponentKind;
  readonly label: string;
  /** The strengths, weakest first; one entry for agents without a budget. */
  readonly strengths: readonly Strength[];
  /** Index into `strengths` chosen when the kind is picked. */
  readonly defaultStrength: number;
  /** True for the opponents built on the served policy (unavailable without one). */
  readonly needsPolicy: boolean;
}

/**
 * The page's PUCT: one leaf at a time (batch=1), each move searched afresh
 * (reuse=0; the evaluation cache, being exact, is kept), a cache of 2^14
 * entries (about 700 KB).
 */
const azSpec = (simulations: number): string =>
  `az:${PAGE_NETWORK},sims=${simulations},batch=1,reuse=0,cache=14`;

export const OPPONENTS: readonly OpponentChoice[] = [
  {
    kind: 'perfect',
    label: 'Perfect (exact solver)',
    strengths: [{ spec: 'perfect', label: 'never a value-losing move' }],
    defaultStrength: 0,
    needsPolicy: false,
  },
  {
    kind: 'policy',
    label: 'Policy (network)',
    strengths: [{ spec: `policy:${PAGE_NETWORK}`, label: 'top move, no search' }],
    defaultStrength: 0,
    needsPolicy: true,
  },
  {
    kind: 'az',
    label: 'Policy + search (PUCT)',
    strengths: [50, 200, 800, 3200].map((simulations) => ({
      spec: azSpec(simulations),
      label: `${simulations.toLocaleString('en')} simulations a move`,
    })),
    defaultStrength: 1,
    needsPolicy: true,
  },
  {
    kind: 'minimax',
    label: 'Minimax (alpha-beta)',
    strengths: [2, 4, 6, 8, 10, 12].map((depth) => ({
      spec: `minimax:${depth}`,
      label: `depth ${depth} (${depth} plies)`,
    })),
    defaultStrength: 1,
    needsPolicy: false,
  },
  {
    kind: 'mcts',
    label: 'MCTS (playouts)',
    strengths: [250, 1000, 4000, 16000].map((iterations) => ({
      spec: `mcts:${iterations}`,
      label: `${iterations.toLocaleString('en')} playouts a move`,
    })),
    defaultStrength: 1,
    needsPolicy: false,
  },
  {
    kind: 'greedy',
    label: 'Greedy (1 move)',
    strengths: [{ spec: 'greedy', label: 'biggest capture now' }],
    defaultStrength: 0,
    needsPolicy: false,
  },
  {
    kind: 'random',
    label: 'Random',
    strengths: [{ spec: 'random', label: 'any legal move' }],
    defaultStrength: 0,
    needsPolicy: false,
  },
];

/** The catalogue entry of a kind; throws for a kind the page does not offer. */
export function opponentOf(kind: string): OpponentChoice {
  const found = OPPONENTS.find((choice) => choice.kind === kind);
  if (found === undefined) {
    throw new Error(
      `unknown opponent '${kind}'; the page offers ${OPPONENTS.map((c) => c.kind).join(', ')}`,
    );
  }
  return found;
}

/** The catalogue entry that offers `spec`; throws for a spec the page does not offer. */
export function choiceOf(spec: string): OpponentChoice {
  const found = OPPONENTS.find((choice) => choice.strengths.some((s) => s.spec === spec));
  if (found === undefined) throw new Error(`the page does not offer the opponent '${spec}'`);
  return found;
}

/**
 * The computer player for one of the catalogue's specs, made by the page's
 * registry. `policy:` and `az:` specs need the loaded network, `perfect` the
 * page's solver worker (`askPerfect`); `seed` drives the agent's ties and
 * playouts.
 */
export async function createComputer(
  spec: string,
  rules: Rules,
  seed: number,
  network: SearchNetwork | null,
  askPerfect: AskPerfectMove | null = null,
): Promise<ComputerPlayer> {
  choiceOf(spec);
  const agent = await PAGE_AGENT_KINDS.create(spec, { rules, network, askPerfect, seed });
  return new AgentPlayer(agent, rules, seed);
}
