import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import type { Argv } from 'yargs';
import { gamesProgressBar } from '../../display/progress.ts';
import { formatRules, type Rules, SEED_RANGE } from '../../env/index.ts';
import { poolBookRunner } from '../../eval/book-pool.ts';
import { cacheDir } from '../../files/cache-dir.ts';
import { lockFolder } from '../../files/folder-lock.ts';
import type { OpeningBook } from '../../solve/book/book.ts';
import {
  bookPath,
  findBook,
  readBook,
  SHIPPED_BOOK_PLIES,
  shippedBookPath,
} from '../../solve/book/cache/book-cache.ts';
import { type BookChunkRunner, buildBook, fileSize } from '../../solve/book/cache/build-book.ts';
import { localBookRunner } from '../../solve/book/cache/local-runner.ts';
import {
  checkBook,
  DEFAULT_BOOK_CHECK_SAMPLES,
  DEFAULT_BOOK_CHECK_SEED,
} from '../../solve/book/check.ts';
import {
  BOOK_TABLE_BITS,
  BookFileError,
  type BookSettings,
  MAX_BOOK_PLIES,
} from '../../solve/book/format.ts';
import { loadEndgameShowingProgress } from '../../solve/endgame/cache/progress.ts';
import type { EndgameValues } from '../../solve/index.ts';
import { endgameOption, endgameSeedsFromArg } from '../endgame-option.ts';
import { rulesFromArg, rulesOption } from '../engine-args.ts';
import { CliError, defineCommand, runCommand, UsageError } from '../fail.ts';
import {
  type QueueArgs,
  queueOptions,
  queueUrl,
  stopOnSignals,
  writeStatusLine,
} from '../queue-args.ts';
import { workersHere } from '../workers-option.ts';

interface BookArgs extends QueueArgs {
  action: string;
  plies?: number;
  rules?: string;
  workers: number;
  endgame: string;
  out?: string;
  file?: string;
  sample: number;
  seed: number;
  quiet: boolean;
}

function integerIn(name: string, value: number, min: number, max: number): number {
  if (!(Number.isInteger(value) && value >= min && value <= max)) {
    throw new UsageError(`${name} must be an integer in ${min}..${max}, got ${String(value)}`);
  }
  return value;
}

/** The endgame table of the book's settings (with its progress bar when it has to be built). */
function endgameOf(settings: BookSettings, quiet: boolean): EndgameValues | null {
  return settings.endgameSeeds === 0
    ? null
    : loadEndgameShowingProgress(settings.endgameSeeds, settings.rules, {
        quiet,
        announceBuild: true,
      });
}

function kilobytes(bytes: number | null): string {
  return bytes === null ? '?' : `${Math.round(bytes / 1024).toLocaleString('en-US')} KB`;
}

function sampleLine(resolved: number, seed: number): string {
  return resolved > 0
    ? `${resolved} position${resolved === 1 ? '' : 's'} re-solved from scratch agree${resolved === 1 ? 's' : ''} (seed ${seed})`
    : 'no position re-solved (--sample 0)';
}

async function build(argv: BookArgs, rules: Rules): Promise<void> {
  const settings: BookSettings = {
    rules,
    plies: integerIn('--plies', argv.plies ?? SHIPPED_BOOK_PLIES, 1, MAX_BOOK_PLIES),
    endgameSeeds: endgameSeedsFromArg('--endgame', argv.endgame),
    tableBits: BOOK_TABLE_BITS,
  };
  const queue = queueUrl(argv, false);
  const path = argv.out !== undefined ? resolve(argv.out) : bookPath(cacheDir(), settings);
  // One build of a book at a time: two would write over each other's resume file.
  const lock = lockFolder(path, 'opening book build');
  const stop = stopOnSignals();
  try {
    const endgame = endgameOf(settings, argv.quiet);
    let runner: BookChunkRunner;
    if (queue !== undefined) {
      // The queue's client (BullMQ, ioredis) is loaded only for a queued build.
      const { queueBookRunner } = await import('../../queue/book-runner.ts');
      runner = queueBookRunner(queue, { log: writeStatusLine, signal: stop.signal });
    } else {
      const workers = workersHere(integerIn('--workers', argv.workers, 0, 1024), undefined);
      runner = workers === 0 ? localBookRunner(() => endgame) : poolBookRunner(workers);
    }
    const bar = gamesProgressBar({
      quiet: argv.quiet,
      label: `book, ${settings.plies} plies`,
      unit: 'positions',
    });
    const built = await (async () => {
      try {
        return await buildBook(settings, {
          path,
          runner,
          endgame,
          checkSamples: integerIn('--sample', argv.sample, 0, 1_000_000),
          onProgress: (done, total) => bar.update(done, total),
          onNote: (line) => writeStatusLine(`ayoayo: ${line}`),
          signal: stop.signal,
        });
      } finally {
        bar.stop();
      }
    })();
    process.stdout.write(
      `built the opening book of ${settings.plies} plies under ${formatRules(rules)}: ${built.book.size} positions (${built.leaves} leaves solved, ${built.resumed} of them before), ${kilobytes(fileSize(path))}, in ${built.seconds.toFixed(1)} s\n` +
        `checked: every position before ply ${settings.plies} holds its replies' values; ${built.check.endgameMoves} leaf moves agree with the endgame table; ${sampleLine(built.check.resolved, DEFAULT_BOOK_CHECK_SEED)}\n` +
        `wrote ${path}\n`,
    );
  } finally {
    stop.dispose();
    lock.release();
  }
}

/** The book `book check` checks: the file named, else the deepest there is for the rules (and plies). */
function bookToCheck(argv: BookArgs, rules: Rules): { book: OpeningBook; path: string } {
  const seeds = endgameSeedsFromArg('--endgame', argv.endgame);
  if (argv.file !== undefined) {
    const plies = integerIn('--plies', argv.plies ?? SHIPPED_BOOK_PLIES, 1, MAX_BOOK_PLIES);
    const settings = { rules, plies, endgameSeeds: seeds, tableBits: BOOK_TABLE_BITS };
    if (!existsSync(argv.file)) throw new CliError(`no book file at ${argv.file}`);
    try {
      return { book: readBook(argv.file, settings), path: argv.file };
    } catch (err) {
      if (err instanceof BookFileError) throw new BookFileError(`${argv.file}: ${err.message}`);
      throw err;
    }
  }
  let path = '';
  const book = findBook(rules, {
    onRefused: (file, why) => writeStatusLine(`ayoayo: ${file}: ${why}: not used`),
    onRead: (file) => {
      path = file;
    },
  });
  if (book === null || (argv.plies !== undefined && book.plies !== argv.plies)) {
    throw new CliError(
      `no opening book${argv.plies !== undefined ? ` of ${argv.plies} plies` : ''} under ${formatRules(rules)} in ${cacheDir()}${argv.plies === undefined ? ' or the package' : ''}: build one with ayoayo book build${argv.rules !== undefined ? ` --rules ${argv.rules}` : ''}`,
    );
  }
  return {
    book,
    path: path === shippedBookPath() ? `the package's book (${book.plies} plies)` : path,
  };
}

function check(argv: BookArgs, rules: Rules): void {
  const { book, path } = bookToCheck(argv, rules);
  const seed = argv.seed;
  if (!Number.isSafeInteger(seed))
    throw new UsageError(`--seed must be ${SEED_RANGE}, got ${seed}`);
  const endgame = endgameOf(book.settings, argv.quiet);
  const bar = gamesProgressBar({ quiet: argv.quiet, label: 'book check', unit: 'positions' });
  const started = performance.now();
  let report: ReturnType<typeof checkBook>;
  try {
    report = checkBook(book, {
      endgame,
      samples: integerIn('--sample', argv.sample, 0, 1_000_000),
      seed,
      onSample: (done, total) => bar.update(done, total),
    });
  } finally {
    bar.stop();
  }
  process.stdout.write(
    `checked ${path}: ${report.entries} positions of ${book.plies} plies under ${formatRules(rules)}; every position before ply ${book.plies} holds its replies' values; ${report.endgameMoves} leaf moves agree with the endgame table; ${sampleLine(report.resolved, seed)} (${((performance.now() - started) / 1000).toFixed(1)} s)\n`,
  );
}

export const bookCommand = defineCommand<BookArgs>({
  command: 'book <action>',
  describe:
    'Build or check the opening book: the exact value of every move of every position of the first plies',
  builder: (y) =>
    y
      .positional('action', {
        type: 'string',
        choices: ['build', 'check'],
        describe: 'build: solve the book into the cache (resumable); check: check a book',
      })
      .option('plies', {
        type: 'number',
        describe: `every position reachable within this many plies (build: default ${SHIPPED_BOOK_PLIES}; 1..${MAX_BOOK_PLIES}; each ply costs about 4.5 times the one before)`,
      })
      .option('rules', rulesOption)
      .option('workers', {
        type: 'number',
        default: availableParallelism(),
        describe:
          'worker threads of a build (default and most: one per core); 0 runs in the main thread',
      })
      .option('endgame', {
        ...endgameOption,
        describe: 'the endgame table the leaves are solved with (seeds; 0: none)',
      })
      .option('out', {
        type: 'string',
        describe: 'build: write the book here rather than into the cache',
      })
      .option('file', {
        type: 'string',
        describe: "check: the book file to check (default: the cache's, or the package's)",
      })
      .option('sample', {
        type: 'number',
        default: DEFAULT_BOOK_CHECK_SAMPLES,
        describe: 'positions re-solved from scratch by the check',
      })
      .option('seed', {
        type: 'number',
        default: DEFAULT_BOOK_CHECK_SEED,
        describe: 'seed of the sample',
      })
      .option('quiet', { type: 'boolean', default: false, describe: 'no progress bar' })
      .options(queueOptions('solve the leaves on `ayoayo worker`s'))
      .example(
        '$0 book build --plies 6 --workers 2',
        "the default rules' book of 6 plies (about half an hour of CPU)",
      )
      .example(
        '$0 book check --sample 32',
        'check the book, re-solving 32 positions',
      ) as unknown as Argv<BookArgs>,
  handler: runCommand(async (argv: BookArgs) => {
    const rules = rulesFromArg(argv.rules);
    if (argv.action === 'build') {
      if (argv.file !== undefined)
        throw new UsageError('--file is for book check; build writes with --out');
      await build(argv, rules);
    } else {
      if (argv.out !== undefined)
        throw new UsageError('--out is for book build; check reads --file');
      check(argv, rules);
    }
  }),
});
