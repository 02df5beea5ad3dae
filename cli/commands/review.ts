import type { Argv } from 'yargs';
import { gamesProgressBar } from '../../display/progress.ts';
import { formatRules, type Position, parsePosition, type Rules } from '../../env/index.ts';
import { reviewOracle } from '../../eval/review-oracle.ts';
import { loadEndgameShowingProgress } from '../../solve/endgame/cache/progress.ts';
import {
  type GameReview,
  type PlayerReview,
  parseMoveList,
  type ReviewedMove,
  reviewGame,
} from '../../solve/index.ts';
import { endgameOption, endgameSeedsFromArg } from '../endgame-option.ts';
import {
  describeOutcome,
  durationFlag,
  durationFromArg,
  positionDescription,
  positionFromArg,
  rulesFromArg,
  rulesOption,
} from '../engine-args.ts';
import { defineCommand, runCommand } from '../fail.ts';
import { textTable } from '../text-table.ts';

interface ReviewArgs {
  moves: string | number;
  from?: string;
  rules?: string;
  time: string;
  endgame: string;
  book: boolean;
  json: boolean;
  quiet: boolean;
}

function errorMark(move: ReviewedMove): string {
  return move.error === true ? 'lost value' : move.error === null ? '?' : '';
}

function playerLine(summary: PlayerReview, budgetMs: number): string {
  const moves = `${summary.moves} move${summary.moves === 1 ? '' : 's'}`;
  const errors =
    summary.errors === 0
      ? 'no value-losing move'
      : `${summary.errors} value-losing (the first at ply ${summary.firstError})`;
  const undecided =
    summary.undecided === 0
      ? ''
      : `, ${summary.undecided} undecided (not proven within ${budgetMs / 1000} s a position)`;
  return `Player ${summary.player}: ${moves}, ${errors}${undecided}`;
}

function report(
  review: GameReview,
  start: Position,
  rules: Rules,
  showRules: boolean,
  budgetMs: number,
): string {
  const lines = [`Start:    ${review.start} (player ${start.toMove} to move)`];
  if (showRules) lines.push(`Rules:    ${formatRules(rules)}`);
  lines.push(
    '',
    ...textTable([
      ['ply', 'player', 'action', 'before', 'after', 'best', ''],
      ...review.moves.map((m) => [
        String(m.ply),
        String(m.player),
        String(m.action),
        m.before,
        m.after,
        m.best.length > 0 ? m.best.join(',') : '-',
        errorMark(m),
      ]),
    ]),
    '',
    ...review.players.map((p) => playerLine(p, budgetMs)),
    review.outcome === null
      ? `Final:    ${review.final} (player ${parsePosition(review.final).toMove} to move)`
      : `Final:    ${review.final} (game over: ${describeOutcome(review.outcome)})`,
  );
  return lines.join('\n');
}

export const reviewCommand = defineCommand<ReviewArgs>({
  command: 'review <moves>',
  describe:
    'Review a game: the exact value before and after each move, the moves that lost value and the best ones',
  builder: (y) =>
    y
      .positional('moves', {
        type: 'string',
        demandOption: true,
        describe: 'the moves, a comma-separated list of actions 0..5 from the start (or --from)',
      })
      .option('from', {
        type: 'string',
        describe: `the position the moves start from: ${positionDescription}`,
      })
      .option('rules', rulesOption)
      .option(
        'time',
        durationFlag(
          '10s',
          'solver budget per position, e.g. 500ms, 10s, 2m, up to 24h (values not proven in time are unknown)',
        ),
      )
      .option('endgame', endgameOption)
      .option('book', {
        type: 'boolean',
        default: true,
        describe:
          'take the values of positions in the opening book from the book (--no-book: solve them)',
      })
      .option('json', { type: 'boolean', default: false, describe: 'print one JSON object' })
      .option('quiet', { type: 'boolean', default: false, describe: 'no progress bar' })
      .example('$0 review 0,1,4', 'action 0 from the start loses the won start')
      .example(
        '$0 review 3,2 --from 0,2,0,0,1,2/1,7,3,0,5,2/13-12/0 --json',
        'two moves from a position, as JSON',
      ) as unknown as Argv<ReviewArgs>,
  handler: runCommand((argv: ReviewArgs) => {
    const rules = rulesFromArg(argv.rules);
    const start = positionFromArg(argv.from);
    const actions = parseMoveList(String(argv.moves));
    const budgetMs = durationFromArg('--time', argv.time);
    const seeds = endgameSeedsFromArg('--endgame', argv.endgame);
    const oracle = reviewOracle({
      budgetMs,
      ...(argv.book ? {} : { book: () => null }),
      endgame: (r) =>
        seeds === 0
          ? null
          : loadEndgameShowingProgress(seeds, r, { quiet: argv.quiet, announceBuild: true }),
    });
    const bar = gamesProgressBar({ quiet: argv.quiet, label: 'reviewing', unit: 'moves' });
    const started = performance.now();
    let review: GameReview;
    try {
      review = reviewGame({ start, actions, rules }, oracle, (done, total) =>
        bar.update(done, total),
      );
    } finally {
      bar.stop();
    }
    if (argv.json) {
      const timeMs = Math.round(performance.now() - started);
      process.stdout.write(`${JSON.stringify({ ...review, rules, budgetMs, timeMs })}\n`);
      return;
    }
    process.stdout.write(`${report(review, start, rules, argv.rules !== undefined, budgetMs)}\n`);
  }),
});
