import type { Argv } from 'yargs';
import { fitLine, lineWidth } from '../../display/progress.ts';
import {
  formatPosition,
  formatRules,
  outcome,
  type Position,
  type Rules,
} from '../../env/index.ts';
import { bookSolution } from '../../solve/book/answer.ts';
import type { OpeningBook } from '../../solve/book/book.ts';
import { bookIfAny } from '../../solve/book/cache/load-book.ts';
import { loadEndgameShowingProgress } from '../../solve/endgame/cache/progress.ts';
import {
  describeSolution,
  MAX_TABLE_BITS,
  type MoveValue,
  type Solution,
  solve,
} from '../../solve/index.ts';
import { endgameOption, endgameSeedsFromArg } from '../endgame-option.ts';
import {
  describeOutcome,
  durationFlag,
  durationFromArg,
  positionDescription,
  positionFromArg,
  positionText,
  rulesFromArg,
  rulesOption,
} from '../engine-args.ts';
import { defineCommand, runCommand, UsageError } from '../fail.ts';
import { textTable } from '../text-table.ts';

interface SolveArgs {
  _: (string | number)[];
  position?: string;
  rules?: string;
  time: string;
  nodes?: number;
  tableBits: number;
  endgame: string;
  json: boolean;
  quiet: boolean;
  book: boolean;
}

/** `win`, or `unknown (at least a draw)` where only a bound is proven. */
function valueText(v: Pick<MoveValue, 'value' | 'atLeast' | 'atMost'>): string {
  if (v.value !== 'unknown') return v.value;
  if (v.atLeast !== 'loss') return `unknown (at least a ${v.atLeast})`;
  if (v.atMost !== 'win') return `unknown (at most a ${v.atMost})`;
  return 'unknown';
}

/** The position's line: whose result it is, and how it was proven (or which book holds it). */
function valueLine(solution: Solution, pos: Position, book: OpeningBook | null): string {
  const who = `player ${pos.toMove}`;
  if (book !== null) {
    return `${valueText(solution)} for ${who} (from the opening book of ${book.plies} plies; ${(solution.timeMs / 1000).toFixed(1)} s)`;
  }
  const cost = `${solution.nodes.toLocaleString('en-US')} nodes in ${(solution.timeMs / 1000).toFixed(1)} s`;
  if (solution.value === 'unknown') {
    const why = solution.budgetSpent
      ? `budget spent at depth ${solution.depth}`
      : `still open at the deepest search, ${solution.depth} plies: endless play may decide it`;
    return `${valueText(solution)} for ${who} (${why}; ${cost})`;
  }
  return `${solution.value} for ${who} (proven at depth ${solution.depth}; ${cost})`;
}

/** A progress line on stderr while the solve runs (only on a terminal). */
function progressLine(timeMs: number | undefined): {
  update: (nodes: number, elapsedMs: number) => void;
  stop: () => void;
} {
  const stream = process.stderr;
  if (stream.isTTY !== true) return { update: () => {}, stop: () => {} };
  let drawn = false;
  return {
    update(nodes, elapsedMs) {
      const rate = elapsedMs > 0 ? ((nodes / elapsedMs) * 1000).toFixed(0) : '-';
      const line = fitLine(
        [
          { kind: 'text', forms: ['solving', ''], priority: 1, before: '' },
          {
            kind: 'bar',
            progress: timeMs === undefined ? 0 : elapsedMs / timeMs,
            min: 10,
            max: 40,
            priority: 2,
            before: ' ',
          },
          {
            kind: 'text',
            forms: [
              `${(elapsedMs / 1000).toFixed(1)}${timeMs === undefined ? '' : `/${(timeMs / 1000).toFixed(0)}`} s`,
            ],
            priority: 10,
            before: ' ',
          },
          { kind: 'text', forms: [`${nodes.toLocaleString('en-US')} nodes`, ''], priority: 4 },
          { kind: 'text', forms: [`${rate} nodes/s`, ''], priority: 3 },
        ],
        lineWidth(stream),
      );
      stream.write(`\r${line}\x1b[K`);
      drawn = true;
    },
    stop() {
      if (drawn) stream.write('\r\x1b[K');
    },
  };
}

function report(
  pos: Position,
  rules: Rules,
  solution: Solution,
  showRules: boolean,
  book: OpeningBook | null,
): string {
  const lines = [`Position: ${formatPosition(pos)} (player ${pos.toMove} to move)`];
  if (showRules) lines.push(`Rules:    ${formatRules(rules)}`);
  const over = outcome(pos, rules);
  if (over !== null) {
    lines.push(`Game over: ${describeOutcome(over)}`);
    return lines.join('\n');
  }
  lines.push(`Value:    ${valueLine(solution, pos, book)}`, '');
  const best = new Set(solution.bestActions);
  lines.push(
    ...textTable([
      ['action', 'pit', 'value', ''],
      ...solution.moves.map((m) => [
        String(m.action),
        String(m.pit),
        valueText(m),
        best.has(m.action) ? 'best' : '',
      ]),
    ]),
  );
  if (solution.value !== 'unknown' && !solution.complete) {
    lines.push(
      '',
      solution.budgetSpent
        ? `Moves marked unknown: the budget ran out at depth ${solution.depth}.`
        : `Moves marked unknown are still open at the deepest search (${solution.depth} plies): endless play may decide them.`,
    );
  }
  return lines.join('\n');
}

export const solveCommand = defineCommand<SolveArgs>({
  command: 'solve [position]',
  describe: 'Prove the exact value (win, draw or loss) of a position and of each of its moves',
  builder: (y) =>
    y
      .positional('position', { type: 'string', describe: positionDescription })
      .option('rules', rulesOption)
      .option(
        'time',
        durationFlag(
          '10s',
          'time budget, e.g. 500ms, 10s, 2m, 1h, up to 24h (moves left open are reported unknown)',
        ),
      )
      .option('nodes', { type: 'number', describe: 'node budget (stops at whichever comes first)' })
      .option('table-bits', {
        type: 'number',
        default: 22,
        describe: 'log2 of the transposition table entries (32 bytes each; 22: 128 MB)',
      })
      .option('endgame', endgameOption)
      .option('json', { type: 'boolean', default: false, describe: 'print one JSON object' })
      .option('quiet', { type: 'boolean', default: false, describe: 'no progress line' })
      .option('book', {
        type: 'boolean',
        default: true,
        describe:
          'answer a position of the opening book from the book (--no-book: solve it anyway)',
      })
      .example('$0 solve 0,2,0,0,1,2/1,7,3,0,5,2/13-12/0', 'a position from ply 10 of a game')
      .example(
        '$0 solve --time 2m --json',
        'how far two minutes get from the start',
      ) as unknown as Argv<SolveArgs>,
  handler: runCommand((argv: SolveArgs) => {
    const rules = rulesFromArg(argv.rules);
    const pos = positionFromArg(positionText(argv.position, argv._));
    const timeMs = durationFromArg('--time', argv.time);
    if (argv.nodes !== undefined && !(Number.isInteger(argv.nodes) && argv.nodes > 0)) {
      throw new UsageError(`--nodes must be a positive integer, got ${String(argv.nodes)}`);
    }
    if (
      !(Number.isInteger(argv.tableBits) && argv.tableBits >= 1 && argv.tableBits <= MAX_TABLE_BITS)
    ) {
      throw new UsageError(
        `--table-bits must be an integer in 1..${MAX_TABLE_BITS}, got ${String(argv.tableBits)}`,
      );
    }
    const seeds = endgameSeedsFromArg('--endgame', argv.endgame);
    const book = argv.book ? bookIfAny(rules) : null;
    const fromBook = book === null ? null : bookSolution(book, pos.stateView);
    if (book !== null && fromBook !== null) {
      const solution = describeSolution(pos, fromBook);
      if (argv.json) {
        process.stdout.write(
          `${JSON.stringify({ ...solution, rules, source: 'book', bookPlies: book.plies })}\n`,
        );
      } else {
        process.stdout.write(`${report(pos, rules, solution, argv.rules !== undefined, book)}\n`);
      }
      return;
    }
    const endgame =
      seeds === 0
        ? undefined
        : loadEndgameShowingProgress(seeds, rules, { quiet: argv.quiet, announceBuild: true });
    const progress = argv.quiet || argv.json ? null : progressLine(timeMs);
    let solution: Solution;
    try {
      solution = solve(pos, {
        rules,
        budget: { timeMs, ...(argv.nodes !== undefined ? { nodes: argv.nodes } : {}) },
        tableBits: argv.tableBits,
        ...(endgame !== undefined ? { endgame } : {}),
        ...(progress !== null ? { onProgress: progress.update } : {}),
      });
    } finally {
      progress?.stop();
    }
    if (argv.json) {
      process.stdout.write(`${JSON.stringify({ ...solution, rules, source: 'solver' })}\n`);
      return;
    }
    process.stdout.write(`${report(pos, rules, solution, argv.rules !== undefined, null)}\n`);
  }),
});
