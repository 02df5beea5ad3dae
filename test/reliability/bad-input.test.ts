import '../setup/builtin-algorithms.ts';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  truncateSync,
  writeFileSync,
} from 'node:fs';
import type { Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir, totalmem } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { serveAgent } from '../../agents/engine-server.ts';
import { ExternalAgent } from '../../agents/external.ts';
import { GreedyAgent } from '../../agents/greedy.ts';
import { registerNetworkKinds } from '../../agents/network/kinds.ts';
import { PerfectSearch } from '../../agents/perfect-search.ts';
import { createAgent } from '../../agents/spec.ts';
import { AyoayoEnv } from '../../env/gym/index.ts';
import {
  DEFAULT_RULES,
  initialPosition,
  parsePosition,
  parseRulesText,
  playMove,
  position,
  type Rules,
  START_NOTATION,
  sameRules,
} from '../../env/index.ts';
import { readShippedAccuracySet } from '../../eval/accuracy/shipped-sets.ts';
import { playMatch } from '../../eval/match.ts';
import { runTournament } from '../../eval/tournament.ts';
import { type FolderLock, lockFolder } from '../../files/folder-lock.ts';
import { loadPolicy } from '../../models/load-policy.ts';
import { createPolicyServer } from '../../serve/http-server.ts';
import { close, listen } from '../../serve/listen.ts';
import { PolicyService } from '../../serve/policy-service.ts';
import { bookIfAny } from '../../solve/book/cache/load-book.ts';
import { MAX_ENDGAME_SEEDS } from '../../solve/endgame/cache/table-cache.ts';
import { solve } from '../../solve/index.ts';
import { buildConfig } from '../../train/config/build.ts';
import { PRESETS } from '../../train/config/presets.ts';
import { memoryText } from '../../train/run/memory-limit.ts';
import { train } from '../../train/trainer.ts';
import { runAyoayo } from '../ayoayo-command.ts';
import { MAIN_TEXT, plantedLine, setText, smallPositionLines } from '../eval/accuracy/set-texts.ts';
import { writeRandomPolicy } from '../export/random-policy.ts';

// The kinds that load a network (`policy:`, `az:`, ...), as the command line registers them.
registerNetworkKinds();

// Bad input, one row each: what is given, the error text it must get (one clear
// line naming what is wrong) and the exit code or HTTP status. The README's
// Reliability section lists the same cases.

const START = START_NOTATION;
/** Files the rows below read: sweep configs, run folders, policy files. */
const scratch = mkdtempSync(join(tmpdir(), 'ayoayo-bad-input-'));
const RUNS = join(scratch, 'runs');

/** A sweep config file in the scratch folder. */
function sweepFile(name: string, sweep: Record<string, unknown>): string {
  const path = join(scratch, `${name}.json`);
  writeFileSync(path, JSON.stringify({ runsDir: RUNS, preset: 'smoke', ...sweep }));
  return path;
}
const SWEEP_DOTDOT = sweepFile('dotdot', { name: '..', grid: { learningRate: [0.001] } });
const SWEEP_HUGE = sweepFile('huge', {
  name: 'huge',
  grid: {
    learningRate: Array.from({ length: 1000 }, (_, i) => (i + 1) / 1e6),
    seed: Array.from({ length: 1000 }, (_, i) => i),
  },
});
const SWEEP_TWICE = sweepFile('twice', {
  name: 'twice',
  grid: { learningRate: [0.001, 0.003, 0.001] },
});
const SWEEP_SAMPLES = sweepFile('samples', {
  name: 'samples',
  random: { samples: 1e12, seed: 1, space: { learningRate: [0.001] } },
});
const SWEEP_BUSY = sweepFile('busy', { name: 'busy', grid: { learningRate: [0.001] } });

/** The pretrained policy edited to another game's rules: its inputs fit, so only the checksum can tell. */
const TAMPERED = join(scratch, 'tampered.json');
/** A sparse file past the policy files' size cap. */
const HUGE_POLICY = join(scratch, 'huge-policy.json');
{
  const file = JSON.parse(readFileSync('models/pretrained/policy.json', 'utf8'));
  file.rules = { ...file.rules, captureSeedStays: !file.rules.captureSeedStays };
  writeFileSync(TAMPERED, JSON.stringify(file));
}

/** A folder where `book build --out` is to write a book. */
const BOOK_FOLDER = join(scratch, 'book-folder.bin');
mkdirSync(BOOK_FOLDER);
/** Accuracy set files: a folder, 700 MB (sparse: no room on the disk), a CRLF copy of the main set with a byte order mark, planted values. */
const SET_FOLDER = join(scratch, 'set-folder.jsonl');
mkdirSync(SET_FOLDER);
const SET_HUGE = join(scratch, 'huge-set.jsonl');
writeFileSync(SET_HUGE, '');
truncateSync(SET_HUGE, 700_000_000);
const SET_CRLF = join(scratch, 'crlf-set.jsonl');
writeFileSync(SET_CRLF, `\uFEFF${MAIN_TEXT.replaceAll('\n', '\r\n')}`);
const SET_SMALL = smallPositionLines(4);
const SET_PLANTED = join(scratch, 'planted-set.jsonl');
writeFileSync(SET_PLANTED, setText(SET_SMALL.map((l, i) => (i === 1 ? plantedLine(l) : l))));
/** The main set with planted values and its checksum made again, where the shipped set would be read from. */
const MAIN_PLANTED = join(scratch, 'main.jsonl');
{
  const [header, ...lines] = MAIN_TEXT.trimEnd().split('\n');
  const planted = lines.map((l, i) => (i % 4 === 0 ? plantedLine(l) : l));
  writeFileSync(MAIN_PLANTED, setText(planted, JSON.parse(header as string).budget));
}

/** A finished two-iteration smoke run (made once, in beforeAll), copied for the rows that change it. */
const TRAINED = 'trained';
/** A second run, whose checkpoints a user might paste into the first one's folder. */
const OTHER = 'other-run';
function copyRun(name: string): string {
  cpSync(join(RUNS, TRAINED), join(RUNS, name), { recursive: true });
  return join(RUNS, name);
}
const locks: FolderLock[] = [];
beforeAll(async () => {
  await train(buildConfig([PRESETS.smoke, { runsDir: RUNS, name: TRAINED }]), {
    resume: false,
    log: () => {},
  });
  await train(buildConfig([PRESETS.smoke, { runsDir: RUNS, name: OTHER, seed: 2 }]), {
    resume: false,
    log: () => {},
  });
}, 60_000);
afterAll(() => {
  for (const lock of locks) lock.release();
});
const BAD_TOTAL = '4,4,4,4,4,4/4,4,4,4,4,5/0-0/0';
const STUCK = '1,0,0,0,1,0/0,0,0,0,0,0/23-23/0';
const USAGE = "(run 'ayoayo --help' for usage)";
/** What --max-job-memory takes on this machine. */
const MEMORY_FORMS = `expected an amount of memory above 0 and up to this machine's ${memoryText(totalmem())}, such as 512MB, 4GB or 1.5GiB`;
/** The end of every agent spec error on the command line (where every kind is registered). */
const VALID_AGENTS = `valid agents: random, greedy, minimax:D, minimax:t=200ms, mcts:N, perfect, ext:COMMAND, policy:PATH, az:PATH[,sims=N|,t=50ms][,c=1.5][,prior=0.5][,temp=1][,cache=16][,batch=16][,reuse=1][,gumbel=0][,solve=1], minimax:t=50ms,eval=PATH[,k=16][,cache=16], minimax:t=50ms,solve=1`;

interface CliRow {
  readonly case: string;
  readonly args: readonly string[];
  readonly stdin?: string;
  /** The whole of stderr (one line) for a failure; '' when it must stay quiet. */
  readonly stderr: string;
  readonly code: number;
  /** Something stdout must hold (a refused move is explained there, and play goes on). */
  readonly stdout?: string;
  /** Prepares the files the row's command reads. */
  readonly setup?: () => void;
  /** Checks what the command left behind (nothing lost). */
  readonly after?: () => void;
  /** Whether stderr is left unchecked (a training run may print its backend note there). */
  readonly anyStderr?: boolean;
}

const cliRows: CliRow[] = [
  {
    case: 'malformed position',
    args: ['show', '1,2,3'],
    stderr: `invalid notation: expected 'row0/row1/store0-store1/toMove' (e.g. ${START}), got '1,2,3'`,
    code: 1,
  },
  {
    case: 'a seed beyond 2^53',
    args: ['eval', '--agents', 'random,greedy', '--games', '2', '--seed', '1e20'],
    stderr: `--seed must be an integer between -(2^53 - 1) and 2^53 - 1, got 100000000000000000000 ${USAGE}`,
    code: 1,
  },
  {
    case: 'seeds not totalling 48',
    args: ['moves', BAD_TOTAL],
    stderr: 'invalid pits: seeds on the board (49) and in the stores (0) must total 48, got 49',
    code: 1,
  },
  {
    case: 'bad player to move',
    args: ['show', '4,4,4,4,4,4/4,4,4,4,4,4/0-0/2'],
    stderr: "invalid toMove: expected 0 or 1, got '2'",
    code: 1,
  },
  {
    case: 'two positions after --',
    args: ['show', '--', START, START],
    stderr: `expected one position, got 2: ${START} ${START} ${USAGE}`,
    code: 1,
  },
  {
    case: 'illegal and malformed moves in play (refused, play goes on)',
    args: ['play', '--against', 'random'],
    stdin: '9\nx\nq\n',
    stderr: '',
    code: 0,
    stdout: "'9' is not an action: type one of 0, 1, 2, 3, 4, 5.",
  },
  {
    case: 'input ending mid-game in play',
    args: ['play', '--against', 'random'],
    stdin: '0\n',
    stderr: 'input ended before the game did',
    code: 1,
  },
  {
    case: 'unknown agent',
    args: ['eval', '--agents', 'foo,random', '--games', '2'],
    stderr: `invalid agent 'foo': unknown agent 'foo'; ${VALID_AGENTS}`,
    code: 1,
  },
  {
    case: 'bad agent parameter',
    args: ['engine', '--agent', 'minimax:0'],
    stderr: "invalid agent 'minimax:0': the depth must be an integer in 1..64",
    code: 1,
  },
  {
    case: 'bad number flag',
    args: ['eval', '--agents', 'random,greedy', '--games', '-1'],
    stderr: `--games must be a positive integer, got -1 ${USAGE}`,
    code: 1,
  },
  {
    case: 'unknown flag',
    args: ['eval', '--agents', 'random,greedy', '--bogus', '1'],
    stderr: `Unknown argument: bogus ${USAGE}`,
    code: 1,
  },
  { case: 'unknown command', args: ['bogus'], stderr: `Unknown command: bogus ${USAGE}`, code: 1 },
  {
    case: 'bad seat',
    args: ['play', '--against', 'random', '--seat', '2'],
    stderr: `--seat must be 0 or 1, got 2 ${USAGE}`,
    code: 1,
  },
  {
    case: 'bad rule options',
    args: ['show', '--rules', 'leftoverTo=moon'],
    stderr: 'invalid rules: leftoverTo: Invalid option: expected one of "opponent"|"owner"',
    code: 1,
  },
  {
    case: 'solve: malformed position',
    args: ['solve', '4,4,4/4,4,4/0-0/0'],
    stderr: "invalid pits 0..5: expected 6 comma-separated counts, got 3 in '4,4,4'",
    code: 1,
  },
  {
    case: 'solve: bad rule options',
    args: ['solve', '--rules', 'captureSeedStays=maybe'],
    stderr: 'invalid rules: captureSeedStays: Invalid input: expected boolean, received string',
    code: 1,
  },
  {
    case: 'solve: bad --time',
    args: ['solve', '--time', '10 seconds'],
    stderr: `invalid --time '10 seconds': expected a duration above 0 and up to 24h, such as 500ms, 10s, 2m or 1.5h (a bare number is seconds) ${USAGE}`,
    code: 1,
  },
  {
    case: 'review: a negative --time',
    args: ['review', '2', '--time', '-1s'],
    stderr: `invalid --time '-1s': expected a duration above 0 and up to 24h, such as 500ms, 10s, 2m or 1.5h (a bare number is seconds) ${USAGE}`,
    code: 1,
  },
  {
    case: 'review: a --time over a day, in minutes',
    args: ['review', '2', '--time', '1500m'],
    stderr: `invalid --time '1500m': expected a duration above 0 and up to 24h, such as 500ms, 10s, 2m or 1.5h (a bare number is seconds) ${USAGE}`,
    code: 1,
  },
  {
    case: "worker: a --max-job-memory over the machine's memory",
    args: ['worker', '--max-job-memory', '1000000GB'],
    stderr: `invalid --max-job-memory '1000000GB': ${MEMORY_FORMS} ${USAGE}`,
    code: 1,
  },
  {
    case: 'worker: a negative --max-job-memory',
    args: ['worker', '--max-job-memory', '-1GB'],
    stderr: `invalid --max-job-memory '-1GB': ${MEMORY_FORMS} ${USAGE}`,
    code: 1,
  },
  {
    case: 'solve: bad --table-bits',
    args: ['solve', '--table-bits', '40'],
    stderr: `--table-bits must be an integer in 1..26, got 40 ${USAGE}`,
    code: 1,
  },
  {
    case: 'missing policy file in a tournament',
    args: [
      'eval',
      '--agents',
      'random,policy:/nonexistent/policy.json',
      '--games',
      '2',
      '--workers',
      '0',
    ],
    stderr: 'policy /nonexistent/policy.json does not exist',
    code: 1,
  },
  {
    // Worker threads lose an error's class: the tournament makes each agent here first.
    case: 'missing policy file in a tournament on worker threads',
    args: ['eval', '--agents', 'random,policy:/nonexistent/policy.json', '--games', '2'],
    stderr: 'policy /nonexistent/policy.json does not exist',
    code: 1,
  },
  {
    case: 'bad network search option in a tournament on worker threads',
    args: [
      'eval',
      '--agents',
      'random',
      '--vs',
      'az:models/pretrained,t=5ms,sim=4',
      '--games',
      '2',
    ],
    stderr: `invalid agent 'az:models/pretrained,t=5ms,sim=4': options: Unrecognized key: "sim"; ${VALID_AGENTS}`,
    code: 1,
  },
  {
    case: 'two agents given as one --vs',
    args: ['eval', '--agents', 'random', '--vs', 'minimax:4,minimax:6', '--games', '2'],
    stderr: `invalid agent 'minimax:4,minimax:6': minimax takes one depth or time, and options after a comma only as minimax:t=50ms,eval=PATH[,k=16][,cache=16] or minimax:t=50ms,solve=1; to name several agents, give each its own --agents entry; ${VALID_AGENTS}`,
    code: 1,
  },
  {
    // Issue 20: the last eval= won and the first path was never checked.
    case: 'an option given twice in an agent spec',
    args: [
      'eval',
      '--agents',
      'random',
      '--vs',
      'minimax:3,eval=/nonexistent,eval=models/pretrained',
      '--games',
      '2',
    ],
    stderr: `invalid agent 'minimax:3,eval=/nonexistent,eval=models/pretrained': eval is given twice (eval=/nonexistent and eval=models/pretrained); give each option once; ${VALID_AGENTS}`,
    code: 1,
  },
  {
    case: 'a numeric agent option out of its range',
    args: ['engine', '--agent', 'az:models/pretrained,sims=1e12'],
    stderr:
      "invalid agent 'az:models/pretrained,sims=1e12': sims: sims must be an integer in 1..10000000",
    code: 1,
  },
  {
    case: 'missing policy for the HTTP service',
    args: ['serve', '--policy', '/nonexistent/run'],
    stderr: 'policy /nonexistent/run does not exist',
    code: 1,
  },
  {
    case: 'bad service limit',
    args: ['serve', '--max-connections', '0'],
    stderr: `--max-connections must be a positive integer, got 0 ${USAGE}`,
    code: 1,
  },
  {
    case: "bad page server limit (web took none: it kept every half-open socket Node's defaults allow)",
    args: ['web', '--max-connections', '0'],
    stderr: `--max-connections must be a positive integer, got 0 ${USAGE}`,
    code: 1,
  },
  {
    case: 'a search cap of nothing',
    args: ['serve', '--search', 'sims=5', '--search-timeout', '0'],
    stderr: `--search-timeout must be a positive number of seconds, up to a day (86400), got 0 ${USAGE}`,
    code: 1,
  },
  {
    case: 'a search longer than the cap a request may take',
    args: ['serve', '--search', 't=60s'],
    stderr: `--search t=60s is longer than --search-timeout (30 s), the most a request's search may take: give a larger --search-timeout ${USAGE}`,
    code: 1,
  },
  {
    case: 'engine protocol: garbage, a huge line and a bad request, then a good one',
    args: ['engine', '--agent', 'greedy'],
    stdin: `garbage\n${'x'.repeat(100_000)}\n{"pits":[4],"stores":[0,0],"toMove":0}\n{"pits":[4,4,4,4,4,4,4,4,4,4,4,4],"stores":[0,0],"toMove":0}\n`,
    stderr: '',
    code: 0,
    stdout: [
      '{"error":"request is not JSON: \\"garbage\\""}',
      '{"error":"request line of 100000 bytes is longer than 65536: send one JSON object per line"}',
      '{"error":"invalid request: pits: Too small: expected array to have exactly 12 items"}',
      '{"action":',
    ].join('\n'),
  },
  {
    case: 'engine protocol: a "legal" list that is not the position\'s legal actions',
    args: ['engine', '--agent', 'greedy'],
    stdin: '{"pits":[0,5,5,5,5,4,4,4,4,4,4,4],"stores":[0,0],"toMove":0,"legal":[1,2]}\n',
    stderr: '',
    code: 0,
    stdout:
      '{"error":"\\"legal\\" is [1,2] but the position\'s legal actions are [1,2,3,4,5]: send the position\'s own legal actions, or leave \\"legal\\" out"}',
  },
  {
    case: 'a sweep named ..',
    args: ['sweep', '--config', SWEEP_DOTDOT],
    stderr: `invalid sweep config ${SWEEP_DOTDOT}: name: must be a folder name, not . or ..`,
    code: 1,
  },
  {
    case: 'a grid of a million runs',
    args: ['sweep', '--config', SWEEP_HUGE],
    stderr: `invalid sweep config ${SWEEP_HUGE}: grid: makes 1000000 runs (1000 learningRate x 1000 seed); a sweep has 1..10000 runs`,
    code: 1,
  },
  {
    case: 'a grid listing a value twice',
    args: ['sweep', '--config', SWEEP_TWICE],
    stderr: `invalid sweep config ${SWEEP_TWICE}: grid.learningRate: lists 0.001 twice: give each value once (every combination is one run)`,
    code: 1,
  },
  {
    case: 'a random search of 1e12 samples',
    args: ['sweep', '--config', SWEEP_SAMPLES],
    stderr: `invalid sweep config ${SWEEP_SAMPLES}: random.samples: must be an integer in 1..10000`,
    code: 1,
  },
  {
    case: 'a sweep whose folder another process holds',
    args: ['sweep', '--config', SWEEP_BUSY],
    setup: () => {
      locks.push(lockFolder(join(RUNS, 'busy'), 'sweep'));
    },
    stderr: `sweep ${join(RUNS, 'busy')} is in use by pid ${process.pid} (`,
    code: 1,
  },
  {
    case: 'a train of a run another process holds',
    args: ['train', '--preset', 'smoke', '--runs-dir', RUNS, '--name', 'held', '--resume'],
    setup: () => {
      copyRun('held');
      locks.push(lockFolder(join(RUNS, 'held'), 'run'));
    },
    stderr: `run ${join(RUNS, 'held')} is in use by pid ${process.pid} (`,
    code: 1,
  },
  {
    case: "train --resume with another run's checkpoints pasted in",
    args: ['train', '--runs-dir', RUNS, '--name', 'pasted', '--resume', '--iterations', '3'],
    setup: () => {
      const dir = copyRun('pasted');
      rmSync(join(dir, 'checkpoints'), { recursive: true });
      cpSync(join(RUNS, OTHER, 'checkpoints'), join(dir, 'checkpoints'), { recursive: true });
    },
    stderr: `--resume cannot change seed (checkpoint: 2, config.json: 1): ${join(RUNS, 'pasted', 'checkpoints', 'latest.json')} was written by run "${OTHER}" and ${join(RUNS, 'pasted', 'config.json')} by run "${TRAINED}"; put back this run's own checkpoint or config.json, or train a new run`,
    code: 1,
  },
  {
    case: 'train --resume with a setting edited in config.json',
    args: ['train', '--runs-dir', RUNS, '--name', 'edited', '--resume', '--iterations', '3'],
    setup: () => {
      const path = join(copyRun('edited'), 'config.json');
      const config = JSON.parse(readFileSync(path, 'utf8'));
      writeFileSync(path, JSON.stringify({ ...config, hidden: [64, 64] }, null, 2));
    },
    stderr: `--resume cannot change hidden (checkpoint: [16], config.json: [64,64]), edited in ${join(RUNS, 'edited', 'config.json')}; a resumed run may change only iterations,`,
    code: 1,
    after: () => {
      // Nothing rewritten: the edit is still there for the user to put back.
      const config = JSON.parse(readFileSync(join(RUNS, 'edited', 'config.json'), 'utf8'));
      expect(config.hidden).toEqual([64, 64]);
    },
  },
  {
    case: 'train --resume with a truncated latest.json',
    args: ['train', '--runs-dir', RUNS, '--name', 'truncated', '--resume', '--iterations', '3'],
    setup: () => {
      truncateSync(join(copyRun('truncated'), 'checkpoints', 'latest.json'), 500);
    },
    stderr: '',
    anyStderr: true,
    code: 0,
    stdout: `checkpoint ${join(RUNS, 'truncated', 'checkpoints', 'latest.json')} is corrupt: not valid JSON (truncated?); resuming from the newest intact checkpoint instead, ${join(RUNS, 'truncated', 'checkpoints', 'iter-000002.json')} (iteration 2)`,
  },
  {
    case: 'a policy file edited after it was written',
    args: ['eval', '--agents', `random,policy:${TAMPERED}`, '--games', '2', '--workers', '0'],
    stderr: `policy ${TAMPERED} is corrupt: checksum mismatch (the file was edited or damaged after it was written)`,
    code: 1,
  },
  {
    case: 'a worker given no queue',
    args: ['worker'],
    stderr: `no queue given: pass --queue URL or --queue-file FILE, or set $AYOAYO_QUEUE ${USAGE}`,
    code: 1,
  },
  {
    case: 'train --queue-timeout without --queue',
    args: ['train', '--preset', 'smoke', '--runs-dir', RUNS, '--queue-timeout', '60'],
    stderr: `--queue-timeout applies with --queue only ${USAGE}`,
    code: 1,
  },
  {
    case: 'train --queue-timeout that is not a positive number',
    args: [
      'train',
      '--preset',
      'smoke',
      '--runs-dir',
      RUNS,
      '--queue',
      'redis://127.0.0.1:1',
      '--queue-timeout',
      '0',
    ],
    stderr: `--queue-timeout must be a positive number of seconds, got 0 ${USAGE}`,
    code: 1,
  },
  {
    case: 'train --queue with PPO, whose rollouts are not sharded',
    args: ['train', '--preset', 'smoke', '--runs-dir', RUNS, '--queue', 'redis://127.0.0.1:1'],
    stderr: `only expert iteration's self-play is played in shards that other machines can take (the queue); ppo's rollouts step all environments in lockstep with the learner's network in one process: train it without --queue, or spread whole runs with sweep --queue ${USAGE}`,
    code: 1,
  },
  {
    case: 'train --queue with a queue nobody listens on',
    args: [
      'train',
      '--preset',
      'smoke',
      '--algorithm',
      'expert-iteration',
      '--runs-dir',
      RUNS,
      '--name',
      'unqueued',
      '--queue',
      'redis://127.0.0.1:1',
    ],
    stderr: 'cannot use the queue at redis://127.0.0.1:1: connect ECONNREFUSED',
    code: 1,
    after: () => {
      // Refused before anything was written.
      expect(() => readFileSync(join(RUNS, 'unqueued', 'config.json'))).toThrow(/ENOENT/);
    },
  },
  {
    case: '--queue without a URL and no AYOAYO_QUEUE',
    args: ['eval', '--agents', 'random,greedy', '--queue', ''],
    stderr: `--queue without a URL takes it from $AYOAYO_QUEUE, which is not set ${USAGE}`,
    code: 1,
  },
  {
    case: 'a policy that is a device (/dev/zero), for policy: and az:',
    args: ['eval', '--agents', 'policy:/dev/zero,az:/dev/zero,sims=1,random', '--games', '2'],
    stderr:
      'policy /dev/zero is not a regular file (a device, a pipe or a socket): give a policy file',
    code: 1,
  },
  {
    case: 'a policy file over the size cap',
    setup: () => {
      writeFileSync(HUGE_POLICY, '');
      truncateSync(HUGE_POLICY, 300 * 1024 * 1024);
    },
    args: ['play', '--against', `policy:${HUGE_POLICY}`],
    stderr: `policy ${HUGE_POLICY} is 300.0 MiB, more than the 256 MiB a policy file may be`,
    code: 1,
  },
  {
    case: 'solve --endgame given empty (it meant no table, silently)',
    args: ['solve', '--endgame', ''],
    stderr: `--endgame must be an integer in 0..20 (0: no table), got '' ${USAGE}`,
    code: 1,
  },
  {
    case: 'solve --endgame past the largest table',
    args: ['solve', '--endgame', '21'],
    stderr: `--endgame must be an integer in 0..20 (0: no table), got '21' ${USAGE}`,
    code: 1,
  },
  {
    case: 'a rule option named __proto__',
    args: ['show', '--rules', '__proto__=1'],
    stderr: 'invalid rules: Unrecognized key: "__proto__"',
    code: 1,
  },
  {
    case: 'an agent thinking longer than 600 s a move',
    args: ['eval', '--agents', 'minimax:t=100000000s,random', '--games', '2'],
    stderr:
      "invalid agent 'minimax:t=100000000s': the depth must be an integer in 1..64, or t=TIME with TIME a positive time up to 600s, such as 50ms or 2s",
    code: 1,
  },
  {
    case: 'accuracy --set naming a folder',
    args: ['accuracy', '--agents', 'random', '--set', SET_FOLDER],
    stderr: `accuracy set ${SET_FOLDER} is a folder, not an accuracy set file`,
    code: 1,
  },
  {
    case: 'accuracy --set of 700 MB',
    args: ['accuracy', '--agents', 'random', '--set', SET_HUGE],
    stderr: `accuracy set ${SET_HUGE} is 667.6 MiB, more than the 64 MiB an accuracy set file may be`,
    code: 1,
  },
  {
    case: 'accuracy --set /dev/zero',
    args: ['accuracy', '--agents', 'random', '--set', '/dev/zero'],
    stderr:
      'accuracy set /dev/zero is not a regular file (a device, a pipe or a socket): give an accuracy set file',
    code: 1,
  },
  {
    case: 'accuracy --set of a CRLF copy of the main set with a byte order mark',
    args: ['accuracy', '--agents', 'greedy', '--set', SET_CRLF, '--workers', '0', '--quiet'],
    stderr: '',
    code: 0,
    stdout: 'greedy',
  },
  {
    case: 'accuracy --verify of a set with planted values, its checksum made again',
    args: ['accuracy', '--agents', 'random', '--set', SET_PLANTED, '--verify'],
    stderr: `accuracy set ${SET_PLANTED}, line 3: the solver disagrees with the values of ${(JSON.parse(SET_SMALL[1] as string) as { position: string }).position}: the set has value `,
    code: 1,
  },
  {
    case: 'review: a move that is not an action',
    args: ['review', '2,x,1'],
    stderr: "the move at ply 1 is 'x': expected an action 0..5 (the mover's pits, left to right)",
    code: 1,
  },
  {
    case: 'review: an illegal move',
    args: ['review', '0', '--from', '0,0,0,0,1,0/1,0,0,1,1,1/20-23/0'],
    stderr:
      'the move at ply 0, action 0, is illegal in 0,0,0,0,1,0/1,0,0,1,1,1/20-23/0 (empty pit); legal actions: 4',
    code: 1,
  },
  {
    case: 'review: a move after the end of the game',
    args: ['review', '4', '--from', '1,0,0,0,1,0/0,0,0,0,0,0/23-23/0'],
    stderr:
      'the move at ply 0 (action 4) comes after the game ended in 1,0,0,0,1,0/0,0,0,0,0,0/23-23/0',
    code: 1,
  },
  {
    case: 'review: more moves than a review takes',
    args: ['review', Array(2001).fill('2').join(',')],
    stderr: '2001 moves: at most 2000 are reviewed',
    code: 1,
  },
  {
    case: 'review: a malformed --from',
    args: ['review', '2', '--from', '4,4/4,4/0-0/0'],
    stderr: "invalid pits 0..5: expected 6 comma-separated counts, got 2 in '4,4'",
    code: 1,
  },
  {
    case: 'review: bad --endgame',
    args: ['review', '2', '--endgame', '99'],
    stderr: `--endgame must be an integer in 0..${MAX_ENDGAME_SEEDS} (0: no table), got '99' ${USAGE}`,
    code: 1,
  },
  {
    case: 'eval: bad --review-time, before any game',
    args: ['eval', '--agents', 'random,greedy', '--review', '--review-time', 'soon'],
    stderr: `invalid --review-time 'soon': expected a duration above 0 and up to 24h, such as 500ms, 10s, 2m or 1.5h (a bare number is seconds) ${USAGE}`,
    code: 1,
  },
  {
    case: 'eval: bad --review-endgame, before any game',
    args: ['eval', '--agents', 'random,greedy', '--review', '--review-endgame', '-1'],
    stderr: `--review-endgame must be an integer in 0..${MAX_ENDGAME_SEEDS} (0: no table), got '-1' ${USAGE}`,
    code: 1,
  },
  {
    case: 'book build deeper than a book this code reads',
    args: ['book', 'build', '--plies', '12'],
    stderr: `--plies must be an integer in 1..9, got '12' ${USAGE}`,
    code: 1,
  },
  {
    case: 'book build with an empty --plies',
    args: ['book', 'build', '--plies', ''],
    stderr: `--plies must be an integer in 1..9, got '' ${USAGE}`,
    code: 1,
  },
  {
    case: 'book build with a --plies that is no number',
    args: ['book', 'build', '--plies', 'six'],
    stderr: `--plies must be an integer in 1..9, got 'six' ${USAGE}`,
    code: 1,
  },
  {
    case: 'book build with an empty --sample, which would mean none',
    args: ['book', 'build', '--plies', '7', '--sample', ''],
    stderr: `--sample must be an integer in 0..1000000, got '' ${USAGE}`,
    code: 1,
  },
  {
    case: 'book build into a folder, before any solving',
    args: ['book', 'build', '--plies', '1', '--out', BOOK_FOLDER],
    stderr: `${BOOK_FOLDER} is a folder, not a book file: name a file to write`,
    code: 1,
  },
  {
    case: 'book build into the cache of the book the package ships, which would never be read',
    args: ['book', 'build', '--plies', '6'],
    stderr: `the package ships the book of 6 plies under captureSeedStays=false,leftoverTo=opponent, and no cache book of as many plies or fewer is read: build a deeper one (--plies 7..9), or this one with --out FILE ${USAGE}`,
    code: 1,
  },
  {
    case: 'book check of a file that is not there',
    args: ['book', 'check', '--file', '/nonexistent/book.bin'],
    stderr: 'no book file at /nonexistent/book.bin',
    code: 1,
  },
  {
    case: 'book check of a file that is no book',
    args: ['book', 'check', '--file', 'package.json'],
    stderr: 'package.json: not an ayoayo opening book',
    code: 1,
  },
  {
    case: 'book check of a device, which would be read without end',
    args: ['book', 'check', '--file', '/dev/zero'],
    stderr:
      'book /dev/zero is not a regular file (a device, a pipe or a socket): give an opening book',
    code: 1,
  },
];

describe('bad input on the command line: one line on stderr, the exit code', () => {
  it.concurrent.each(cliRows)(
    '$case',
    async (row) => {
      row.setup?.();
      const { code, stdout, stderr } = await runAyoayo(row.args, row.stdin);
      row.after?.();
      if (row.anyStderr === true) expect(stderr).not.toMatch(/bug|\n\s+at /);
      else if (row.stderr === '') expect(stderr).toBe('');
      else {
        expect(stderr.startsWith(`ayoayo: ${row.stderr}`), stderr).toBe(true);
        expect(stderr.trimEnd().split('\n')).toHaveLength(1);
      }
      expect(code).toBe(row.code);
      if (row.stdout !== undefined) expect(stdout).toContain(row.stdout);
    },
    60_000,
  );
});

interface LibraryRow {
  readonly case: string;
  readonly call: () => unknown;
  /** The error's class and the start of its message. */
  readonly error: string;
  readonly message: string;
}

const libraryRows: LibraryRow[] = [
  {
    case: 'notation',
    call: () => parsePosition('1,2,3'),
    error: 'PositionError',
    message: "invalid notation: expected 'row0/row1/store0-store1/toMove'",
  },
  {
    case: 'a negative count',
    call: () => position({ pits: [-1, ...Array(11).fill(4)], stores: [0, 0], toMove: 0 }),
    error: 'PositionError',
    message: 'invalid pits[0]: expected a non-negative integer, got -1',
  },
  {
    case: 'counts not totalling 48',
    call: () => position({ pits: Array(12).fill(5), stores: [0, 0], toMove: 0 }),
    error: 'PositionError',
    message: 'invalid pits: seeds on the board (60) and in the stores (0) must total 48, got 60',
  },
  {
    case: 'an action out of range',
    call: () => playMove(initialPosition(), 7),
    error: 'IllegalActionError',
    message: 'illegal action 7: not an action; legal actions: 0, 1, 2, 3, 4, 5',
  },
  {
    case: 'an empty pit',
    call: () => playMove(parsePosition('2,7,0,6,1,6/6,6,0,0,6,6/2-0/1'), 2),
    error: 'IllegalActionError',
    message: 'illegal action 2: empty pit; legal actions: 0, 1, 4, 5',
  },
  {
    case: 'rule options',
    call: () => parseRulesText('leftoverTo=moon'),
    error: 'RulesError',
    message: 'invalid rules: leftoverTo: Invalid option',
  },
  {
    case: 'environment options',
    call: () => new AyoayoEnv({ bogus: 1 } as never),
    error: 'EnvOptionsError',
    message: 'invalid environment options: options: Unrecognized key: "bogus"',
  },
  {
    case: 'environment step before reset',
    call: () => new AyoayoEnv().step(0),
    error: 'EpisodeStateError',
    message: 'step() called before reset()',
  },
  {
    case: 'environment illegal action',
    call: () => {
      const env = new AyoayoEnv();
      env.reset({ seed: 1 });
      return env.step(9);
    },
    error: 'IllegalActionError',
    message: 'illegal action 9: not an action',
  },
  {
    case: 'unknown agent spec',
    call: () => createAgent('foo'),
    error: 'AgentSpecError',
    message: "invalid agent 'foo': unknown agent 'foo'; valid agents: random, greedy",
  },
  {
    case: 'an option given twice in an agent spec',
    call: () => createAgent('az:models/pretrained,sims=50,sims=5000'),
    error: 'AgentSpecError',
    message:
      "invalid agent 'az:models/pretrained,sims=50,sims=5000': sims is given twice (sims=50 and sims=5000); give each option once",
  },
  {
    case: 'a numeric agent option out of its range',
    call: () => createAgent('az:models/pretrained,cache=30'),
    error: 'AgentSpecError',
    message:
      "invalid agent 'az:models/pretrained,cache=30': cache: cache must be an integer in 0..24 (log2 of the entries; 0: none)",
  },
  {
    case: 'missing policy file',
    call: () => createAgent('policy:/nonexistent/policy.json'),
    error: 'PolicyFileError',
    message: 'policy /nonexistent/policy.json does not exist',
  },
  {
    case: 'a policy file edited after it was written',
    call: () => loadPolicy(TAMPERED),
    error: 'PolicyFileError',
    message: `policy ${TAMPERED} is corrupt: checksum mismatch`,
  },
  {
    case: 'external engine without a command',
    call: () => new ExternalAgent('  '),
    error: 'Error',
    message: 'ext: needs a command, e.g. ext:python3 engine.py',
  },
  {
    case: 'no games',
    call: () => runTournament({ specs: ['random', 'greedy'], games: 0, workers: 0 }),
    error: 'RangeError',
    message: 'games must be a positive integer, got 0',
  },
  {
    case: 'an agent listed twice',
    call: () => runTournament({ specs: ['random', 'random'], games: 2, workers: 0 }),
    error: 'RangeError',
    message: "agent 'random' is listed twice",
  },
  {
    case: 'solve options',
    call: () => solve(initialPosition(), { budget: { timeMs: 0 } }),
    error: 'SolveOptionsError',
    message: 'invalid solve options: budget.timeMs: Too small: expected number to be >0',
  },
  {
    case: 'a fractional seed',
    call: () => playMatch({ a: new GreedyAgent(), b: new GreedyAgent(), games: 2, seed: 1.5 }),
    error: 'RangeError',
    message: 'seed must be an integer between -(2^53 - 1) and 2^53 - 1, got 1.5',
  },
  {
    // 2^53 + 1 is read as 2^53: a seed a double cannot hold would alias its neighbours.
    case: 'a seed beyond 2^53',
    call: () => new AyoayoEnv().reset({ seed: 2 ** 53 }),
    error: 'EnvOptionsError',
    message:
      'invalid seed: expected an integer between -(2^53 - 1) and 2^53 - 1, got 9007199254740992',
  },
  {
    case: 'a shipped accuracy set with planted values, its checksum made again',
    call: () => readShippedAccuracySet('main', MAIN_PLANTED),
    error: 'AccuracySetError',
    message: `accuracy set 'main' (${MAIN_PLANTED}) was changed: its sha256 is `,
  },
  {
    case: 'a solver-backed agent without its time, in every kind that may be solver-backed',
    call: () => createAgent('az:models/pretrained,sims=50,solve=1'),
    error: 'AgentSpecError',
    message:
      "invalid agent 'az:models/pretrained,sims=50,solve=1': solve=1 needs a time t=TIME (a positive time up to 600s, such as 50ms or 2s): the solver gets a share of it",
  },
  {
    case: 'a solve= that is not 0 or 1',
    call: () => createAgent('minimax:t=50ms,solve=yes'),
    error: 'AgentSpecError',
    message: "invalid agent 'minimax:t=50ms,solve=yes': solve must be 0 or 1",
  },
];

describe('bad input to the library: a typed error naming what is wrong', () => {
  it.each(libraryRows)('$case', async (row) => {
    const error = await (async () => row.call())().then(
      () => null,
      (err: unknown) => err as Error,
    );
    expect(error?.name).toBe(row.error);
    expect(error?.message.startsWith(row.message)).toBe(true);
  });
});

interface HttpRow {
  readonly case: string;
  readonly method: string;
  readonly path: string;
  readonly body?: string;
  readonly status: number;
  readonly error: string;
}

const httpRows: HttpRow[] = [
  {
    case: 'bad JSON',
    method: 'POST',
    path: '/act',
    body: '{"position": ',
    status: 400,
    error: 'the body is not valid JSON',
  },
  {
    case: 'an unknown field',
    method: 'POST',
    path: '/act',
    body: `{"position":"${START}","depth":3}`,
    status: 400,
    error: 'Unrecognized key: "depth"',
  },
  {
    case: 'an illegal position',
    method: 'POST',
    path: '/act',
    body: `{"position":"${BAD_TOTAL}"}`,
    status: 400,
    error: 'must total 48',
  },
  {
    case: 'a finished game',
    method: 'POST',
    path: '/act',
    body: `{"position":"${STUCK}"}`,
    status: 400,
    error: 'game is over',
  },
  {
    case: 'a wrong method',
    method: 'GET',
    path: '/act',
    status: 405,
    error: '/act accepts POST only, not GET',
  },
  {
    case: 'an unknown path',
    method: 'GET',
    path: '/nowhere',
    status: 404,
    error: 'no such endpoint /nowhere',
  },
  {
    case: 'an oversize body',
    method: 'POST',
    path: '/act',
    body: JSON.stringify({ position: START, padding: 'x'.repeat(20_000) }),
    status: 413,
    error: 'request body over 16384 bytes',
  },
];

describe('bad input to the HTTP service: JSON {error} and the status', () => {
  let server: Server;
  let url: string;
  beforeAll(async () => {
    const policy = loadPolicy(writeRandomPolicy(mkdtempSync(join(tmpdir(), 'ayoayo-bad-'))));
    server = createPolicyServer(new PolicyService(policy));
    url = await listen(server, 0, '127.0.0.1');
  });
  afterAll(() => close(server));

  it.each(httpRows)('$case', async (row) => {
    const res = await fetch(`${url}${row.path}`, {
      method: row.method,
      ...(row.body !== undefined ? { body: row.body } : {}),
    });
    expect(res.status).toBe(row.status);
    expect(((await res.json()) as { error: string }).error).toContain(row.error);
  });

  it('a connection over the cap is answered 503 with Retry-After, not reset', async () => {
    const policy = loadPolicy(writeRandomPolicy(mkdtempSync(join(tmpdir(), 'ayoayo-bad-'))));
    const capped = createPolicyServer(new PolicyService(policy), { maxConnections: 1 });
    const base = await listen(capped, 0, '127.0.0.1');
    const { port } = new URL(base);
    const idle: Socket = connect(Number(port), '127.0.0.1');
    idle.on('error', () => {});
    await new Promise((resolve) => idle.once('connect', resolve));
    try {
      const res = await fetch(`${base}/health`);
      expect(res.status).toBe(503);
      expect(res.headers.get('retry-after')).toBe('1');
      expect(((await res.json()) as { error: string }).error).toContain(
        'the service is busy: 1 connections are open, the most it serves at once; retry in 1 s',
      );
    } finally {
      idle.destroy();
      await close(capped);
    }
  });

  it('a body with a UTF-8 byte order mark is not bad input', async () => {
    const res = await fetch(`${url}/act`, {
      method: 'POST',
      body: `\uFEFF{"position":"${START}"}`,
    });
    expect(res.status).toBe(200);
  });

  it('a position under rules `--search perfect` has no book for: 422 naming the command that builds one, not hours of solving', async () => {
    const policy = loadPolicy(writeRandomPolicy(mkdtempSync(join(tmpdir(), 'ayoayo-bad-'))));
    // The service's own book only, whatever this machine's cache holds for other rules.
    const book = (rules: Rules) => (sameRules(rules, policy.rules) ? bookIfAny(rules) : null);
    const perfect = createPolicyServer(
      new PolicyService(policy, new PerfectSearch(policy.rules, { book })),
    );
    const base = await listen(perfect, 0, '127.0.0.1');
    try {
      const res = await fetch(`${base}/act`, {
        method: 'POST',
        body: JSON.stringify({ position: START, rules: { captureSeedStays: true } }),
      });
      expect(res.status).toBe(422);
      expect(((await res.json()) as { error: string }).error).toContain(
        'build one with `ayoayo book build --rules captureSeedStays=true,leftoverTo=opponent`, then start the service again',
      );
    } finally {
      await close(perfect);
    }
  });
});

describe('bad input over the engine protocol: an error line, and the session goes on', () => {
  it.each([
    ['garbage', 'e4 e5', 'request is not JSON: "e4 e5"'],
    ['a JSON array', '[1,2]', 'invalid request: Invalid input: expected object, received array'],
    ['a short board', '{"pits":[4],"stores":[0,0],"toMove":0}', 'invalid request: pits'],
    [
      'a bad player',
      `{"pits":${JSON.stringify(Array(12).fill(4))},"stores":[0,0],"toMove":2}`,
      'invalid request: toMove',
    ],
    [
      'a finished game',
      JSON.stringify({ ...parsePosition(STUCK), legal: undefined }),
      'the game is over',
    ],
    ['a huge line', 'x'.repeat(70_000), 'request line of 70000 bytes is longer than 65536'],
  ])('%s', async (_case, line, error) => {
    const input = new PassThrough();
    const output = new PassThrough();
    const chunks: string[] = [];
    output.on('data', (c: Buffer) => chunks.push(c.toString()));
    const served = serveAgent(new GreedyAgent(), input, output, { rules: DEFAULT_RULES, seed: 1 });
    input.end(
      `${line}\n${JSON.stringify({ pits: Array(12).fill(4), stores: [0, 0], toMove: 0 })}\n`,
    );
    expect(await served).toBe(1);
    const [reply, next] = chunks
      .join('')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(reply.error).toContain(error);
    expect(next).toEqual({ action: expect.any(Number) });
  });
});
