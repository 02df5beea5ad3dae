import {
  formatPosition,
  formatRules,
  type IllegalReason,
  illegalReason,
  type MoveReport,
  type Outcome,
  outcome,
  type Position,
  playMove,
  type Rules,
} from '../../env/index.ts';
import {
  describeOutcome,
  positionDescription,
  positionFromArg,
  positionText,
  rulesFromArg,
  rulesOption,
} from '../engine-args.ts';
import { defineCommand, runCommand, UsageError } from '../fail.ts';
import { textTable } from '../text-table.ts';

interface MovesArgs {
  _: (string | number)[];
  position?: string;
  rules?: string;
  json: boolean;
}

type ActionLine =
  | { action: number; pit: number; legal: false; reason: IllegalReason }
  | {
      action: number;
      pit: number;
      legal: true;
      position: string;
      laps: number;
      seedsSown: number;
      endPit: number;
      captured: number;
      capturedFrom: number | null;
      outcome: Outcome | null;
    };

/** Every action 0..5 of `pos`: why it is illegal, or what it does. */
function describeActions(pos: Position, rules: Rules): ActionLine[] {
  return [0, 1, 2, 3, 4, 5].map((action): ActionLine => {
    const pit = pos.toMove * 6 + action;
    const reason = illegalReason(pos, action, rules);
    if (reason !== null) return { action, pit, legal: false, reason };
    const { position: next, report } = playMove(pos, action, rules);
    const { laps, seedsSown, endPit, captured, capturedFrom }: MoveReport = report;
    return {
      action,
      pit,
      legal: true,
      position: formatPosition(next),
      laps,
      seedsSown,
      endPit,
      captured,
      capturedFrom,
      outcome: outcome(next, rules),
    };
  });
}

function rowOf(line: ActionLine): string[] {
  const head = [String(line.action), String(line.pit)];
  if (!line.legal)
    return [...head, `illegal: ${line.reason.replaceAll('-', ' ')}`, '', '', '', '', ''];
  const capture =
    line.capturedFrom === null ? '-' : `${line.captured} from pit ${line.capturedFrom}`;
  return [
    ...head,
    line.position,
    String(line.laps),
    String(line.seedsSown),
    String(line.endPit),
    capture,
    line.outcome === null ? '' : `game over: ${describeOutcome(line.outcome)}`,
  ];
}

export const movesCommand = defineCommand<MovesArgs>({
  command: 'moves [position]',
  describe: 'List every action of a position: why it is illegal, or what it does',
  builder: (y) =>
    y
      .positional('position', { type: 'string', describe: positionDescription })
      .option('rules', rulesOption)
      .option('json', { type: 'boolean', default: false, describe: 'print one JSON object' })
      .example('$0 moves 4,4,4,4,4,4/4,4,4,4,4,4/0-0/0', 'the six opening moves'),
  handler: runCommand((argv: MovesArgs) => {
    const rules = rulesFromArg(argv.rules);
    const text = positionText(argv.position, argv._);
    if (text === undefined) throw new UsageError('moves needs a position');
    const pos = positionFromArg(text);
    const actions = describeActions(pos, rules);
    const result = outcome(pos, rules);
    if (argv.json) {
      const report = {
        position: formatPosition(pos),
        toMove: pos.toMove,
        rules,
        outcome: result,
        actions,
      };
      process.stdout.write(`${JSON.stringify(report)}\n`);
      return;
    }
    const lines = [`Position: ${formatPosition(pos)} (player ${pos.toMove} to move)`];
    if (argv.rules !== undefined) lines.push(`Rules:    ${formatRules(rules)}`);
    if (result !== null) lines.push(`Game over: ${describeOutcome(result)}`);
    lines.push(
      '',
      ...textTable([
        ['action', 'pit', 'result', 'laps', 'sown', 'ends', 'captures', ''],
        ...actions.map(rowOf),
      ]),
    );
    process.stdout.write(`${lines.join('\n')}\n`);
  }),
});
