import {
  formatPosition,
  formatRules,
  legalActions,
  outcome,
  renderBoard,
} from '../../env/index.ts';
import {
  describeOutcome,
  positionDescription,
  positionFromArg,
  positionText,
  rulesFromArg,
  rulesOption,
} from '../engine-args.ts';
import { defineCommand, runCommand } from '../fail.ts';

interface ShowArgs {
  _: (string | number)[];
  position?: string;
  rules?: string;
}

export const showCommand = defineCommand<ShowArgs>({
  command: 'show [position]',
  describe: 'Draw a position as the players see it (the start by default)',
  builder: (y) =>
    y
      .positional('position', { type: 'string', describe: positionDescription })
      .option('rules', rulesOption)
      .example('$0 show', 'the start position')
      .example('$0 show 2,7,0,6,1,6/6,6,0,0,6,6/2-0/1', 'after the opening move 0')
      .example('$0 show -- 2,7,0,6,1,6/6,6,0,0,6,6/2-0/1', 'the same'),
  handler: runCommand((argv: ShowArgs) => {
    const rules = rulesFromArg(argv.rules);
    const pos = positionFromArg(positionText(argv.position, argv._));
    const result = outcome(pos, rules);
    const lines = [
      renderBoard(pos, { over: result !== null }),
      '',
      `Position: ${formatPosition(pos)}`,
    ];
    if (argv.rules !== undefined) lines.push(`Rules:    ${formatRules(rules)}`);
    lines.push(
      result === null
        ? `Legal actions: ${legalActions(pos, rules).join(', ')}`
        : `Game over: ${describeOutcome(result)}`,
    );
    process.stdout.write(`${lines.join('\n')}\n`);
  }),
});
