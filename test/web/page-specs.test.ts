/**
 * The page's opponents are agent specs that mean on the command line what
 * they mean on the page: the page's registry reads them to the same plain
 * data as the command line's, and the command line makes the same agent of
 * each (the same moves and searches, position after position).
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Agent } from '../../agents/agent.ts';
import { agentKind } from '../../agents/agent-kinds.ts';
import { BROWSER_KINDS } from '../../agents/browser-kinds.ts';
import { registerNetworkKinds } from '../../agents/network/kinds.ts';
import { PuctAgent } from '../../agents/puct/agent.ts';
import { createAgent, parseAgentSpec } from '../../agents/spec.ts';
import { DEFAULT_RULES, legalActions, Random } from '../../env/index.ts';
import { decodeBrowserPolicy } from '../../models/export/browser-policy.ts';
import {
  type InferenceChoice,
  inferenceChoice,
  setInferenceChoice,
} from '../../models/inference/choice.ts';
import {
  createComputer,
  OPPONENTS,
  PAGE_AGENT_KINDS,
  PAGE_NETWORK,
  type PageAgentOptions,
} from '../../web/src/opponents.ts';
import { AgentPlayer } from '../../web/src/players.ts';
import { randomPositions } from '../agents/positions.ts';

registerNetworkKinds();

const rules = DEFAULT_RULES;
/** The network the page is served by default: the pretrained one, which its specs name. */
const network = decodeBrowserPolicy(
  JSON.parse(readFileSync(new URL(`../../${PAGE_NETWORK}/policy.json`, import.meta.url), 'utf8')),
);
const SPECS = OPPONENTS.flatMap((choice) => choice.strengths.map((s) => s.spec));
const notAsked = () => Promise.reject(new Error('not asked in this test'));
const pageOptions = { rules, network, askPerfect: notAsked, seed: 1 };

let inference: InferenceChoice;
beforeAll(() => {
  // The page runs the network on the plain runner: the command line then does too, to the bit.
  inference = inferenceChoice();
  setInferenceChoice('plain');
});
afterAll(() => setInferenceChoice(inference));

describe("the page's opponents", () => {
  it('are each an agent spec, read to the same plain data by the page and the command line', () => {
    expect(SPECS).toContain(`policy:${PAGE_NETWORK}`);
    expect(SPECS).toContain(`az:${PAGE_NETWORK},sims=200,batch=1,reuse=0,cache=14`);
    const page = SPECS.map((spec) => structuredClone(PAGE_AGENT_KINDS.parse(spec)));
    expect(page).toEqual(SPECS.map((spec) => parseAgentSpec(spec)));
  });

  // The two weakest of each kind (the others differ in their budget alone), but the perfect
  // player: the page's asks its solver worker (perfect-opponent.ts).
  const checked = OPPONENTS.flatMap((choice) =>
    choice.kind === 'perfect' ? [] : choice.strengths.slice(0, 2).map((s) => s.spec),
  );
  it.each(checked)('%s: the command line makes the same agent', async (spec) => {
    const onPage = await PAGE_AGENT_KINDS.create(spec, pageOptions);
    const cli = await createAgent(spec, { rules });
    try {
      expect(onPage.constructor).toBe(cli.constructor);
      expect(onPage.name).toBe(cli.name);
      // A game's worth of positions, each agent keeping what it keeps from move to move.
      for (const [i, position] of randomPositions(29, 6, rules).entries()) {
        const legal = legalActions(position, rules);
        const move = (agent: Agent) =>
          agent.act(position, { legal, rng: Random.fromSeed(i), rules });
        expect(await move(onPage), `${spec}, position ${i}`).toBe(await move(cli));
        if (onPage instanceof PuctAgent && cli instanceof PuctAgent) {
          expect(onPage.lastSearch?.visits).toEqual(cli.lastSearch?.visits);
        }
      }
    } finally {
      await cli.close?.();
    }
  });

  it('are made by the page’s registry of agent kinds', async () => {
    const mcts = BROWSER_KINDS.find((kind) => kind.kind === 'mcts');
    const made: string[] = [];
    // Another mcts kind, registered in place of the page's: the page makes its agent.
    const recording = agentKind<'mcts', PageAgentOptions>({
      kind: 'mcts',
      forms: ['mcts:N'],
      parse: (argument) => ({ iterations: Number(argument?.text) }),
      create: (spec, { name }) => {
        made.push(`${spec.kind} ${spec.iterations} ${name}`);
        return { name, act: (_position, { legal }) => legal[0] as number };
      },
    });
    PAGE_AGENT_KINDS.register({ kinds: [recording] });
    try {
      const player = await createComputer('mcts:250', rules, 4, null, notAsked);
      expect(made).toEqual(['mcts 250 mcts:250']);
      expect(player).toBeInstanceOf(AgentPlayer);
    } finally {
      if (mcts !== undefined) PAGE_AGENT_KINDS.register({ kinds: [mcts] });
    }
    expect(
      readFileSync(new URL('../../web/src/opponents.ts', import.meta.url), 'utf8'),
    ).not.toMatch(/\bswitch\s*\(/);
  });
});
