import type { Argv } from 'yargs';
import { serveAgent } from '../../agents/engine-server.ts';
import { createAgent } from '../../agents/spec.ts';
import { SEED_RANGE } from '../../env/index.ts';
import { agentFormsForHelp } from '../agent-forms.ts';
import { rulesFromArg, rulesOption } from '../engine-args.ts';
import { defineCommand, runCommand, UsageError } from '../fail.ts';
import { inferenceOption } from '../inference-option.ts';

interface EngineArgs {
  agent: string;
  rules?: string;
  seed: number;
}

export const engineCommand = defineCommand<EngineArgs>({
  command: 'engine',
  describe: 'Serve an agent as an external engine: JSON requests on stdin, answers on stdout',
  builder: (y) =>
    y
      .option('inference', inferenceOption)
      .option('agent', {
        type: 'string',
        demandOption: true,
        describe: `the agent to serve (${agentFormsForHelp()})`,
      })
      .option('rules', {
        ...rulesOption,
        describe: `${rulesOption.describe}; a request's own "rules" field wins`,
      })
      .option('seed', {
        type: 'number',
        default: 1,
        describe: "seed of the agent's random choices",
      })
      .example(
        `echo '{"pits":[4,4,4,4,4,4,4,4,4,4,4,4],"stores":[0,0],"toMove":0}' | $0 engine --agent minimax:6`,
        'prints {"action":2}',
      ) as unknown as Argv<EngineArgs>,
  handler: runCommand(async (argv: EngineArgs) => {
    if (!Number.isSafeInteger(argv.seed))
      throw new UsageError(`--seed must be ${SEED_RANGE}, got ${argv.seed}`);
    const rules = rulesFromArg(argv.rules);
    // stdout carries the protocol only: anything an agent logs goes to stderr.
    console.log = console.error;
    console.info = console.error;
    const agent = await createAgent(argv.agent, { rules });
    try {
      await serveAgent(agent, process.stdin, process.stdout, { rules, seed: argv.seed });
    } finally {
      await agent.close?.();
    }
  }),
});
