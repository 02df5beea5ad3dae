import { createInterface } from 'node:readline';
import type { Argv } from 'yargs';
import type { Agent } from '../../agents/agent.ts';
import { MinimaxAgent } from '../../agents/minimax.ts';
import { createAgent } from '../../agents/spec.ts';
import {
  formatRules,
  illegalReason,
  initialPosition,
  legalActions,
  outcome,
  type Player,
  type Position,
  playMove,
  Random,
  type Rules,
  renderBoard,
  SEED_RANGE,
  traceMove,
} from '../../env/index.ts';
import { agentFormsForHelp } from '../agent-forms.ts';
import { describeOutcome, rulesFromArg, rulesOption } from '../engine-args.ts';
import { CliError, defineCommand, runCommand, UsageError } from '../fail.ts';
import { inferenceOption } from '../inference-option.ts';

interface PlayArgs {
  against: string;
  seat: number;
  rules?: string;
  seed: number;
}

/** How a played move went, in words: the relay lap by lap and any capture. */
export function describeMove(before: Position, action: number, rules: Rules): string[] {
  const laps = traceMove(before, action, rules);
  const { report } = playMove(before, action, rules);
  const lines = laps.map(
    (lap, i) =>
      `  lap ${i + 1}: lifts ${lap.seeds} from pit ${lap.from}, last seed in pit ${lap.end}`,
  );
  if (report.captured > 0 && report.capturedFrom !== null) {
    // The facing pit as the last lap left it; whatever else was captured is the capturing seed.
    const fromPit = laps.at(-1)?.pitsAfter[report.capturedFrom] ?? 0;
    const seed = report.captured > fromPit ? ' and the capturing seed' : '';
    lines.push(
      `  captures ${fromPit} seeds from pit ${report.capturedFrom}${seed}: +${report.captured}`,
    );
  } else {
    lines.push('  no capture');
  }
  return lines;
}

export const playCommand = defineCommand<PlayArgs>({
  command: 'play',
  describe: 'Play against an agent in the terminal',
  builder: (y) =>
    y
      .option('inference', inferenceOption)
      .option('against', {
        type: 'string',
        demandOption: true,
        describe: `the agent to play (${agentFormsForHelp()})`,
      })
      .option('seat', {
        type: 'number',
        default: 0,
        describe: 'your seat: 0 (south, moves first) or 1 (north)',
      })
      .option('rules', rulesOption)
      .option('seed', {
        type: 'number',
        default: 1,
        describe: "seed of the agent's random choices",
      })
      .example('$0 play --against minimax:4', 'you move first')
      .example(
        '$0 play --against mcts:2000 --seat 1',
        'the agent moves first',
      ) as unknown as Argv<PlayArgs>,
  handler: runCommand(async (argv: PlayArgs) => {
    if (argv.seat !== 0 && argv.seat !== 1)
      throw new UsageError(`--seat must be 0 or 1, got ${argv.seat}`);
    if (!Number.isSafeInteger(argv.seed))
      throw new UsageError(`--seed must be ${SEED_RANGE}, got ${argv.seed}`);
    const rules = rulesFromArg(argv.rules);
    const agent = await createAgent(argv.against, { rules });
    try {
      await playInTerminal(agent, argv.seat, rules, Random.fromSeed(argv.seed));
    } finally {
      await agent.close?.();
    }
  }),
});

async function playInTerminal(
  agent: Agent,
  seat: Player,
  rules: Rules,
  rng: Random,
): Promise<void> {
  const out = (text = ''): void => {
    process.stdout.write(`${text}\n`);
  };
  const rl = createInterface({ input: process.stdin, terminal: false });
  const lines = rl[Symbol.asyncIterator]();
  try {
    out(
      `You are player ${seat} (${seat === 0 ? 'south, bottom row' : 'north'}); ${agent.name} is player ${1 - seat}.`,
    );
    if (seat === 1) out('The board is turned round so that your row is at the bottom.');
    out(`Rules: ${formatRules(rules)}.`);
    out('Type an action number 0..5 (printed beside your row), or q to quit.');
    let position = initialPosition();
    agent.newGame?.();
    for (;;) {
      out();
      const result = outcome(position, rules);
      out(renderBoard(position, { bottom: seat, over: result !== null }));
      if (result !== null) {
        const verdict =
          result.winner === null
            ? 'A draw.'
            : result.winner === seat
              ? 'You win!'
              : `${agent.name} wins.`;
        out(`Game over: ${describeOutcome(result)}. ${verdict}`);
        return;
      }
      const legal = legalActions(position, rules);
      let action: number;
      if (position.toMove === seat) {
        const chosen = await askMove(lines, position, legal, rules, out);
        if (chosen === null) {
          out('Game abandoned.');
          return;
        }
        action = chosen;
        out(`You play ${action} (pit ${seat * 6 + action}):`);
        for (const line of describeMove(position, action, rules)) out(line);
      } else {
        action = await agent.act(position, { legal, rng, rules });
        if (!legal.includes(action)) {
          throw new CliError(
            `${agent.name} chose illegal action ${action}; legal actions: ${legal.join(', ')}`,
          );
        }
        const search = agent instanceof MinimaxAgent ? agent.lastSearch : null;
        const detail =
          search !== null ? ` (searched ${search.depth} plies, ${search.nodes} nodes)` : '';
        out(`${agent.name} plays ${action} (pit ${position.toMove * 6 + action})${detail}:`);
        for (const line of describeMove(position, action, rules)) out(line);
      }
      position = playMove(position, action, rules).position;
    }
  } finally {
    rl.close();
  }
}

/**
 * Reads lines until one is a legal action (null: the player quit); anything
 * else is explained and asked again.
 */
async function askMove(
  lines: AsyncIterator<string>,
  position: Position,
  legal: readonly number[],
  rules: Rules,
  out: (text?: string) => void,
): Promise<number | null> {
  for (;;) {
    process.stdout.write(`Your move (${legal.join(', ')}): `);
    const next = await lines.next();
    if (next.done === true) {
      out();
      throw new CliError('input ended before the game did');
    }
    const text = next.value.trim();
    if (text === 'q' || text === 'quit') return null;
    const action = /^\d+$/.test(text) ? Number(text) : Number.NaN;
    const reason = Number.isNaN(action) ? null : illegalReason(position, action, rules);
    if (Number.isNaN(action) || reason === 'not-an-action') {
      out(`'${text}' is not an action: type one of ${legal.join(', ')}.`);
    } else if (reason !== null) {
      out(
        `${action} is not legal here (${reason.replaceAll('-', ' ')}): legal actions are ${legal.join(', ')}.`,
      );
    } else {
      // Echo piped input so that a transcript reads like a session.
      if (process.stdin.isTTY !== true) out(text);
      return action;
    }
  }
}
