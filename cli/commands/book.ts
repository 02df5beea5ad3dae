import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { resolve } from 'node:path';
import type { Argv } from 'yargs';
import { integerIn } from '../../agents/spec-options.ts';
import { gamesProgressBar } from '../../display/progress.ts';
import { formatRules, type Rules } from '../../env/index.ts';
import { cacheDir } from '../../files/cache-dir.ts';
import { lockFolder } from '../../files/folder-lock.ts';
import type { OpeningBook } from '../../solve/book/book.ts';
import {
  bookPath,
  findBook,
  readBook,
  SHIPPED_BOOK_PLIES,
  shippedBookFor,
  shippedBookPath,
} from '../../solve/book/cache/book-cache.ts';
import { bookCostWords, durationWords } from '../../solve/book/cache/book-cost.ts';
import {
  type BookChunkRunner,
  type BuiltBook,
  buildBook,
  fileSize,
  freshCheckSeed,
  refuseFolderPath,
} from '../../solve/book/cache/build-book.ts';
import { type FullCheckReport, resolveEveryLeaf } from '../../solve/book/cache/full-check.ts';
import { localBookRunner } from '../../solve/book/cache/local-runner.ts';
import { threadBookRunner } from '../../solve/book/cache/thread-runner.ts';
import { checkBook, DEFAULT_BOOK_CHECK_SAMPLES, sampleCatchOdds } from '../../solve/book/check.ts';
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
  // Numbers are read as text: yargs reads `--plies ''` as 0 and `--plies x` as NaN.
  plies?: string;
  rules?: string;
  workers: string;
  endgame: string;
  out?: string;
  file?: string;
  sample: string;
  seed?: string;
  full: boolean;
  quiet: boolean;
}

/** The integer an option names, in min..max; a UsageError naming the option and what it got. */
function integerArg(name: string, value: string | number, min: number, max: number): number {
  const parsed = integerIn(String(value).trim(), min, max);
  if (parsed === null) {
    throw new UsageError(`${name} must be an integer in ${min}..${max}, got '${String(value)}'`);
  }
  return parsed;
}

/** `--plies`, in 1..MAX_BOOK_PLIES (undefined where it is not given). */
function pliesArg(argv: BookArgs): number | undefined {
  return argv.plies === undefined
    ? undefined
    : integerArg('--plies', argv.plies, 1, MAX_BOOK_PLIES);
}

/** The largest seed `--seed` takes. */
const MAX_CHECK_SEED = 2 ** 47;

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

function leaves(n: number): string {
  return `${n.toLocaleString('en-US')} ${n === 1 ? 'leaf' : 'leaves'}`;
}

/** A check stopped by Ctrl-C or SIGTERM: it ends as a Ctrl-C does. */
class CheckStopped extends CliError {
  readonly exitCode = 130;
}

async function build(argv: BookArgs, rules: Rules): Promise<void> {
  const settings: BookSettings = {
    rules,
    plies: pliesArg(argv) ?? SHIPPED_BOOK_PLIES,
    endgameSeeds: endgameSeedsFromArg('--endgame', argv.endgame),
    tableBits: BOOK_TABLE_BITS,
  };
  const checkSamples = integerArg('--sample', argv.sample, 0, 1_000_000);
  if (argv.seed !== undefined) {
    throw new UsageError(
      "--seed is for book check: a build's sample is drawn once the leaves are in, so that no worker can foresee it",
    );
  }
  const queue = queueUrl(argv, false);
  const workers =
    queue === undefined
      ? workersHere(integerArg('--workers', argv.workers, 0, 1024), undefined)
      : 0;
  const shipped = shippedBookFor(rules);
  if (argv.out === undefined && shipped !== undefined && settings.plies <= shipped.settings.plies) {
    throw new UsageError(
      `the package ships the book of ${shipped.settings.plies} plies under ${formatRules(rules)}, and no cache book of as many plies or fewer is read: build a deeper one (--plies ${shipped.settings.plies + 1}..${MAX_BOOK_PLIES}), or this one with --out FILE`,
    );
  }
  const path = argv.out !== undefined ? resolve(argv.out) : bookPath(cacheDir(), settings);
  refuseFolderPath(path);
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
      runner = workers === 0 ? localBookRunner(() => endgame) : threadBookRunner(workers);
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
          checkSamples,
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
        `checked: every position before ply ${settings.plies} holds its replies' values; ${built.check.endgameMoves} leaf moves agree with the endgame table; ${builtSampleLine(built)}\n` +
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
  const askedPlies = pliesArg(argv);
  if (argv.file !== undefined) {
    const plies = askedPlies ?? SHIPPED_BOOK_PLIES;
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
  if (book === null || (askedPlies !== undefined && book.plies !== askedPlies)) {
    throw new CliError(
      `no opening book${askedPlies !== undefined ? ` of ${askedPlies} plies` : ''} under ${formatRules(rules)} in ${cacheDir()}${askedPlies === undefined ? ' or the package' : ''}: build one with ayoayo book build${argv.rules !== undefined ? ` --rules ${argv.rules}` : ''}`,
    );
  }
  return {
    book,
    path: path === shippedBookPath() ? `the package's book (${book.plies} plies)` : path,
  };
}

/** What a built book's sample says: how many leaves, of which, and its seed. */
function builtSampleLine(built: BuiltBook): string {
  const n = built.check.resolved;
  if (n === 0) return 'no leaf re-solved (--sample 0)';
  const of =
    built.foreign > 0
      ? ` of the ${leaves(built.foreign)} from other processes (queue workers, a resume file)`.replace(
          'leafs',
          'leaves',
        )
      : '';
  return `${leaves(n)}${of} re-solved here from scratch agree (seed ${built.seed}, drawn once they were in)`;
}

/** The odds a sample of `n` of `leaves` catches k forged leaves, in words, for a few k. */
function oddsLine(leaves: number, n: number): string {
  const percent = (k: number): string => {
    const p = sampleCatchOdds(leaves, n, k) * 100;
    return `${p < 1 ? p.toPrecision(1) : p < 99.5 ? p.toFixed(0) : '>99'}%`;
  };
  return `a sample of ${n} catches 1 forged leaf ${percent(1)} of the time, 10 forged leaves ${percent(10)}, 100 ${percent(100)}`;
}

async function check(argv: BookArgs, rules: Rules): Promise<void> {
  const { book, path } = bookToCheck(argv, rules);
  const seed =
    argv.seed === undefined ? freshCheckSeed() : integerArg('--seed', argv.seed, 0, MAX_CHECK_SEED);
  const samples = integerArg('--sample', argv.sample, 0, 1_000_000);
  const workers = workersHere(integerArg('--workers', argv.workers, 0, 1024), undefined);
  const endgame = endgameOf(book.settings, argv.quiet);
  const bar = gamesProgressBar({ quiet: argv.quiet, label: 'book check', unit: 'leaves' });
  const started = performance.now();
  // The CPU the sample's leaves took, for the estimate of re-solving them all.
  let sampleCpu: NodeJS.CpuUsage | null = null;
  let report: ReturnType<typeof checkBook>;
  try {
    report = checkBook(book, {
      endgame,
      samples,
      seed,
      onSample: (done, total) => {
        if (done === 0) sampleCpu = process.cpuUsage();
        bar.update(done, total);
      },
    });
  } finally {
    bar.stop();
  }
  const used = sampleCpu === null ? null : process.cpuUsage(sampleCpu);
  const perLeaf =
    used === null || report.resolved === 0
      ? undefined
      : (used.user + used.system) / 1e6 / report.resolved;
  const sample =
    report.resolved > 0
      ? `${report.resolved} of its ${leaves(report.leaves)} re-solved from scratch agree (seed ${seed}; --seed ${seed} draws the same)`
      : 'no leaf re-solved (--sample 0)';
  process.stdout.write(
    `checked ${path}: ${report.entries} positions of ${book.plies} plies under ${formatRules(rules)}; every position before ply ${book.plies} holds its replies' values; ${report.endgameMoves} leaf moves agree with the endgame table; ${sample} (${((performance.now() - started) / 1000).toFixed(1)} s)\n`,
  );
  if (!argv.full) {
    if (report.resolved > 0) {
      process.stdout.write(
        `${oddsLine(report.leaves, report.resolved)}; book check --full re-solves every leaf: ${bookCostWords(report.leaves, perLeaf, Math.max(1, workers))}\n`,
      );
    }
    return;
  }
  const runner = workers === 0 ? localBookRunner(() => endgame) : threadBookRunner(workers);
  process.stdout.write(
    `re-solving every leaf from scratch: ${bookCostWords(report.leaves, perLeaf, runner.threads)}${perLeaf === undefined ? '' : ` (from the ${report.resolved} sampled)`}\n`,
  );
  const fullBar = gamesProgressBar({
    quiet: argv.quiet,
    label: 'book check --full',
    unit: 'leaves',
  });
  const stop = stopOnSignals();
  const fullStarted = performance.now();
  let full: FullCheckReport;
  let done = 0;
  try {
    full = await resolveEveryLeaf(book, runner, {
      onLeaf: () => fullBar.update(++done, report.leaves),
      signal: stop.signal,
    });
  } finally {
    fullBar.stop();
    stop.dispose();
  }
  const took = durationWords((performance.now() - fullStarted) / 1000);
  if (full.disagree > 0) {
    throw new BookFileError(
      `${path}: ${leaves(full.disagree)} of the ${full.resolved} re-solved from scratch disagree with the book, the first at ${full.first}`,
    );
  }
  if (full.resolved < full.leaves) {
    throw new CheckStopped(
      `stopped: the ${full.resolved} of the ${full.leaves} leaves re-solved agree; run it again to re-solve them all`,
    );
  }
  process.stdout.write(`all ${full.leaves} leaves re-solved from scratch agree (${took})\n`);
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
        type: 'string',
        describe: `every position reachable within this many plies (build: default ${SHIPPED_BOOK_PLIES}; 1..${MAX_BOOK_PLIES}; each ply costs about 4.5 times the one before)`,
      })
      .option('rules', rulesOption)
      .option('workers', {
        type: 'string',
        default: String(availableParallelism()),
        describe:
          'worker threads of a build or a --full check (default and most: one per core); 0 runs in the main thread',
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
        type: 'string',
        default: String(DEFAULT_BOOK_CHECK_SAMPLES),
        describe:
          "leaves re-solved from scratch by the check (a build's: of the leaves from queue workers or a resume file, at least 1% of them)",
      })
      .option('seed', {
        type: 'string',
        describe: 'check: seed of the sample (default: a fresh one, printed)',
      })
      .option('full', {
        type: 'boolean',
        default: false,
        describe:
          'check: re-solve every leaf from scratch (the time of a build; says how long first)',
      })
      .option('quiet', { type: 'boolean', default: false, describe: 'no progress bar' })
      .options(queueOptions('solve the leaves on `ayoayo worker`s'))
      .example(
        '$0 book build --plies 6 --workers 2',
        "the default rules' book of 6 plies (about half an hour of CPU)",
      )
      .example('$0 book check --sample 32', 'check the book, re-solving 32 leaves drawn afresh')
      .example(
        '$0 book check --full',
        'check the book, re-solving every leaf (about half an hour of CPU for the 6-ply book)',
      ) as unknown as Argv<BookArgs>,
  handler: runCommand(async (argv: BookArgs) => {
    const rules = rulesFromArg(argv.rules);
    if (argv.action === 'build') {
      if (argv.file !== undefined)
        throw new UsageError('--file is for book check; build writes with --out');
      if (argv.full) throw new UsageError('--full is for book check');
      await build(argv, rules);
    } else {
      if (argv.out !== undefined)
        throw new UsageError('--out is for book build; check reads --file');
      if (queueUrl(argv, false) !== undefined) {
        throw new UsageError('--queue is for book build: a check re-solves leaves here');
      }
      await check(argv, rules);
    }
  }),
});
