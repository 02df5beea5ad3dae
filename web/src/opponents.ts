/**
 * The opponents the page offers: every agent kind that runs in a browser, each
 * with its strength settings (the search budget). The values are agent specs
 * as the CLI writes them (`minimax:4`, `mcts:1000`; `az:200` is the page's
 * short form of `az:PATH,sims=200,batch=1`), built here from a fixed list
 * because agents/spec.ts also reaches external engines (Node only).
 */
import { CachedEvaluator } from '../../agents/evaluation-cache.ts';
import { GreedyAgent } from '../../agents/greedy.ts';
import { MctsAgent } from '../../agents/mcts.ts';
import { MinimaxAgent } from '../../agents/minimax.ts';
import { NetworkEvaluator } from '../../agents/network/network-evaluator.ts';
import { PuctAgent } from '../../agents/puct/agent.ts';
import { RandomAgent } from '../../agents/random.ts';
import type { Rules } from '../../env/index.ts';
import type { BrowserPolicy } from '../../models/export/browser-policy.ts';
import { type AskPerfectMove, RemotePerfectPlayer } from './perfect-opponent.ts';
import { AgentPlayer, type ComputerPlayer, PolicyPlayer } from './players.ts';

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

/** Evaluation cache of the page's PUCT: 2^14 entries, about 700 KB. */
const AZ_CACHE_BITS = 14;

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
    strengths: [{ spec: 'policy', label: 'top move, no search' }],
    defaultStrength: 0,
    needsPolicy: true,
  },
  {
    kind: 'az',
    label: 'Policy + search (PUCT)',
    strengths: [50, 200, 800, 3200].map((simulations) => ({
      spec: `az:${simulations}`,
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

/**
 * The computer player for one of the catalogue's specs. `policy` and `az` need
 * the loaded network, `perfect` the page's solver worker (`askPerfect`);
 * `seed` drives the agent's ties and playouts.
 */
export function createComputer(
  spec: string,
  rules: Rules,
  seed: number,
  policy: BrowserPolicy | null,
  askPerfect: AskPerfectMove | null = null,
): ComputerPlayer {
  const [kind = '', budget = ''] = spec.split(':');
  const known = opponentOf(kind).strengths.some((strength) => strength.spec === spec);
  if (!known) throw new Error(`the page does not offer the opponent '${spec}'`);
  switch (kind as OpponentKind) {
    case 'perfect':
      if (askPerfect === null) throw new Error('no solver worker is running');
      return new RemotePerfectPlayer(askPerfect, rules, seed);
    case 'policy':
      if (policy === null) throw new Error('no policy is loaded');
      return new PolicyPlayer(policy, rules);
    case 'az':
      if (policy === null) throw new Error('no policy is loaded');
      return new AgentPlayer(createPagePuct(spec, Number(budget), policy, rules), rules, seed);
    case 'minimax':
      return new AgentPlayer(
        new MinimaxAgent({ rules, depth: Number(budget), ttBits: 16, name: spec }),
        rules,
        seed,
      );
    case 'mcts':
      return new AgentPlayer(
        new MctsAgent({ rules, iterations: Number(budget), name: spec }),
        rules,
        seed,
      );
    case 'greedy':
      return new AgentPlayer(new GreedyAgent(spec), rules, seed);
    case 'random':
      return new AgentPlayer(new RandomAgent(spec), rules, seed);
  }
}

/**
 * PUCT with the exported policy's priors and value, one leaf at a time on the
 * plain Float32Array runner (no tfjs in the page), each move searched afresh
 * (the evaluation cache, being exact, is kept): every move is the one
 * `az:PATH,sims=N,batch=1,reuse=0` would choose, ties aside.
 */
function createPagePuct(
  name: string,
  simulations: number,
  policy: BrowserPolicy,
  rules: Rules,
): PuctAgent {
  const network = new NetworkEvaluator(policy.weights, policy.observation, rules);
  return new PuctAgent(new CachedEvaluator(network, AZ_CACHE_BITS), {
    name,
    rules,
    simulations,
    batchSize: 1,
  });
}
