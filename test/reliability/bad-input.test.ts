import { mkdtempSync } from 'node:fs';
import type { Server } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PassThrough } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ExternalAgent } from '../../agents/external.ts';
import { GreedyAgent } from '../../agents/greedy.ts';
import { serveAgent } from '../../agents/serve.ts';
import { createAgent } from '../../agents/spec.ts';
import { AyoayoEnv } from '../../env/gym/index.ts';
import {
  DEFAULT_RULES,
  initialPosition,
  parsePosition,
  parseRulesText,
  playMove,
  position,
  START_NOTATION,
} from '../../env/index.ts';
import { playMatch } from '../../eval/match.ts';
import { runTournament } from '../../eval/tournament.ts';
import { loadPolicy } from '../../models/load-policy.ts';
// Registers `policy:PATH` specs with agents/, as the command line does.
import '../../models/policy-kind.ts';
import { createPolicyServer } from '../../serve/http-server.ts';
import { close, listen } from '../../serve/listen.ts';
import { PolicyService } from '../../serve/policy-service.ts';
import { solve } from '../../solve/index.ts';
import { runAyoayo } from '../ayoayo-command.ts';
import { writeRandomPolicy } from '../export/random-policy.ts';

// Bad input, one row each: what is given, the error text it must get (one clear
// line naming what is wrong) and the exit code or HTTP status. The README's
// Reliability section lists the same cases.

const START = START_NOTATION;
const BAD_TOTAL = '4,4,4,4,4,4/4,4,4,4,4,5/0-0/0';
const STUCK = '1,0,0,0,1,0/0,0,0,0,0,0/23-23/0';
const USAGE = "(run 'ayoayo --help' for usage)";

interface CliRow {
  readonly case: string;
  readonly args: readonly string[];
  readonly stdin?: string;
  /** The whole of stderr (one line) for a failure; '' when it must stay quiet. */
  readonly stderr: string;
  readonly code: number;
  /** Something stdout must hold (a refused move is explained there, and play goes on). */
  readonly stdout?: string;
}

const cliRows: CliRow[] = [
  {
    case: 'malformed position',
    args: ['show', '1,2,3'],
    stderr: `invalid notation: expected 'row0/row1/store0-store1/toMove' (e.g. ${START}), got '1,2,3'`,
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
    stderr:
      "invalid agent 'foo': unknown agent 'foo'; valid agents: random, greedy, minimax:D, minimax:t=200ms, mcts:N, ext:COMMAND, policy:PATH",
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
    stderr: `invalid --time '10 seconds': expected a positive duration such as 500ms, 10s or 2m ${USAGE}`,
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
    stderr:
      'invalid agent \'az:models/pretrained,t=5ms,sim=4\': options: Unrecognized key: "sim"; forms: az:PATH[,sims=N|,t=50ms][,c=1.5][,prior=0.5][,temp=1][,cache=16][,batch=16][,reuse=1][,gumbel=0], minimax:t=50ms,eval=PATH[,k=16][,cache=16]',
    code: 1,
  },
  {
    case: 'two agents given as one --vs',
    args: ['eval', '--agents', 'random', '--vs', 'minimax:4,minimax:6', '--games', '2'],
    stderr:
      "invalid agent 'minimax:4,minimax:6': minimax takes one depth or time, and options after a comma only with eval=PATH; to name several agents, give each its own --agents entry; valid agents: random, greedy, minimax:D, minimax:t=200ms, mcts:N, ext:COMMAND, policy:PATH, az:PATH[,sims=N|,t=50ms][,c=1.5][,prior=0.5][,batch=16], minimax:t=50ms,eval=PATH[,k=16]",
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
];

describe('bad input on the command line: one line on stderr, the exit code', () => {
  it.concurrent.each(cliRows)(
    '$case',
    async (row) => {
      const { code, stdout, stderr } = await runAyoayo(row.args, row.stdin);
      if (row.stderr === '') expect(stderr).toBe('');
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
    case: 'missing policy file',
    call: () => createAgent('policy:/nonexistent/policy.json'),
    error: 'PolicyFileError',
    message: 'policy /nonexistent/policy.json does not exist',
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
    message: 'seed must be an integer, got 1.5',
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

  it('a body with a UTF-8 byte order mark is not bad input', async () => {
    const res = await fetch(`${url}/act`, {
      method: 'POST',
      body: `\uFEFF{"position":"${START}"}`,
    });
    expect(res.status).toBe(200);
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
