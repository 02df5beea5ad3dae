import { availableParallelism } from 'node:os';
import {
  type AgentSpec,
  checkAgentSpec,
  type JobFiles,
  parseAgentList,
  parseAgentSpec,
} from '../agents/spec.ts';
import type { RulesInput } from '../env/index.ts';
import { capWorkers } from '../threads/pool.ts';
import { runAllOnAgentThreads } from './agent-threads.ts';
import {
  agentFactoryWith,
  type Chunk,
  GAMES_JOB,
  type GamesInput,
  type PairingSpecs,
  runChunk,
} from './chunk.ts';
import { fitElo } from './elo.ts';
import {
  type GameRecord,
  MAX_GAMES_PER_PAIRING,
  type MatchSettings,
  matchSettings,
  type PairingLabels,
  type PairingResult,
  scheduleGames,
  summarizePairing,
} from './match.ts';

export interface TournamentOptions {
  /** Agent specs (see agents/spec.ts). Round robin among them, or each against `vs`. */
  readonly specs: readonly string[];
  /** Games per pairing, half from each seat. */
  readonly games: number;
  readonly seed?: number;
  /** Worker threads (default and most: one per core, see capWorkers); 0 plays every game in this thread. */
  readonly workers?: number;
  /** Random plies before the agents play (default 4). */
  readonly openingPlies?: number;
  readonly rules?: RulesInput;
  /** Gauntlet: `vs` plays each of `specs` (and the results are from its side). */
  readonly vs?: string;
  /** Plies after which a game is a draw (default 500). */
  readonly maxPlies?: number;
  /** Per-move limit of external engines in ms (default 5000). */
  readonly moveTimeoutMs?: number;
  /** Called as games finish (after each one in this thread; a few times a second from workers). */
  readonly onProgress?: (progress: { done: number; total: number }) => void;
  /** Plays the chunks somewhere else (a job queue: see queue/) instead of here or on the pool. */
  readonly runChunks?: ChunkRunner;
  /** A queue job's files: the only files the agents may read (see JobFiles). */
  readonly files?: JobFiles;
}

/** Plays a tournament's chunks and returns every record, reporting games as they finish. */
export type ChunkRunner = (
  chunks: readonly Chunk[],
  onGames: (count: number) => void,
) => Promise<GameRecord[]>;

export interface Rating {
  readonly agent: string;
  /** Bradley-Terry Elo, `random` (or else the first agent) at 0; NaN if it played no game. */
  readonly elo: number;
  readonly games: number;
  /** Share of points over all its games. */
  readonly score: number;
}

export interface TournamentResult {
  readonly agents: readonly string[];
  readonly anchor: string;
  readonly pairings: readonly PairingResult[];
  /** Highest Elo first. */
  readonly ratings: readonly Rating[];
  /** Every game, by pairing then game index. */
  readonly games: readonly GameRecord[];
  readonly settings: MatchSettings & { readonly gamesPerPairing: number; readonly workers: number };
  readonly elapsedSeconds: number;
}

/**
 * Plays a round robin (or a gauntlet against `vs`) and rates the agents. Games
 * run on the thread pool (threads/) in chunks of one pairing's games, or
 * in this thread with `workers: 0` (tests, the trainer). The same seed gives the
 * same games whatever the number of workers.
 */
export async function runTournament(options: TournamentOptions): Promise<TournamentResult> {
  const started = performance.now();
  const settings = matchSettings(options);
  const { pairings, parsed, specOf } = plan(options.specs, options.vs);
  const games = options.games;
  if (!Number.isInteger(games) || games < 1)
    throw new RangeError(`games must be a positive integer, got ${games}`);
  if (games > MAX_GAMES_PER_PAIRING) {
    throw new RangeError(
      `games must be at most ${MAX_GAMES_PER_PAIRING} a pairing (every game is kept for the report), got ${games}`,
    );
  }
  const requested = options.workers ?? availableParallelism();
  if (!Number.isInteger(requested) || requested < 0) {
    throw new RangeError(`workers must be a non-negative integer, got ${requested}`);
  }
  // Through a queue, `workers` sizes the chunks for remote workers: this machine's cores don't bound it.
  const workers = options.runChunks !== undefined ? requested : capWorkers(requested);
  const total = pairings.length * games;
  let done = 0;
  const onGames = (count: number): void => {
    done += count;
    options.onProgress?.({ done, total });
  };
  const chunks = splitIntoChunks(pairings, games, settings, options.moveTimeoutMs, workers);
  // Worker threads lose an error's class (see checkAgentSpec); a queue's workers
  // report a failed chunk as a QueueError with its reason instead.
  if (options.runChunks === undefined && workers > 0) {
    for (const spec of parsed) {
      await checkAgentSpec(spec, {
        rules: settings.rules,
        ...(options.files !== undefined ? { files: options.files } : {}),
      });
    }
  }
  // Threads are sent each chunk's specs parsed; a queue, the text (a job is untrusted input).
  const specsOf = (chunk: Chunk): GamesInput['specs'] => ({
    a: specOf(chunk.labels.a),
    b: specOf(chunk.labels.b),
  });
  const records =
    options.runChunks !== undefined
      ? await options.runChunks(chunks, onGames)
      : workers === 0
        ? await runHere(chunks, specsOf, onGames, options.files)
        : (
            await runAllOnAgentThreads(
              GAMES_JOB,
              chunks.map(
                (chunk): GamesInput => ({
                  chunk,
                  specs: specsOf(chunk),
                  ...(options.files !== undefined ? { files: options.files } : {}),
                }),
              ),
              workers,
              onGames,
            )
          ).flat();
  records.sort((x, y) => x.pairing - y.pairing || x.game - y.game);

  const results = pairings.map((p) =>
    summarizePairing(
      p.a,
      p.b,
      records.filter((r) => r.pairing === p.pairing),
    ),
  );
  const agents =
    options.vs !== undefined
      ? [options.vs, ...options.specs.filter((s) => s !== options.vs)]
      : [...options.specs];
  const anchor = agents.includes('random') ? 'random' : (agents[0] as string);
  const elo = fitElo(
    agents,
    results.map((r) => ({ a: r.a, b: r.b, games: r.games, points: r.score * r.games })),
    { anchor },
  );
  const ratings = agents
    .map((agent) => {
      let played = 0;
      let points = 0;
      for (const r of results) {
        if (r.a === agent) {
          played += r.games;
          points += r.score * r.games;
        } else if (r.b === agent) {
          played += r.games;
          points += (1 - r.score) * r.games;
        }
      }
      return {
        agent,
        elo: elo.get(agent) as number,
        games: played,
        score: played > 0 ? points / played : Number.NaN,
      };
    })
    .sort((x, y) => (Number.isNaN(y.elo) ? -1 : Number.isNaN(x.elo) ? 1 : y.elo - x.elo));
  return {
    agents,
    anchor,
    pairings: results,
    ratings,
    games: records,
    settings: { ...settings, gamesPerPairing: games, workers },
    elapsedSeconds: (performance.now() - started) / 1000,
  };
}

/** Pairings of a round robin, or of a gauntlet with `vs` as `a`; specs are checked here. */
export function planPairings(specs: readonly string[], vs?: string): PairingLabels[] {
  return plan(specs, vs).pairings;
}

/**
 * planPairings, with the specs of the agents that play, parsed once, and the
 * parsed spec of each label.
 */
function plan(
  specs: readonly string[],
  vs?: string,
): { pairings: PairingLabels[]; parsed: AgentSpec[]; specOf: (label: string) => AgentSpec } {
  const parsed = parseAgentList(specs);
  const byLabel = new Map(specs.map((spec, i) => [spec, parsed[i] as AgentSpec]));
  const specOf = (label: string): AgentSpec => byLabel.get(label) as AgentSpec;
  if (vs !== undefined) {
    const others = specs.filter((s) => s !== vs);
    const own = parseAgentSpec(vs);
    if (others.length === 0)
      throw new RangeError(`a gauntlet needs at least one agent besides '${vs}'`);
    byLabel.set(vs, own);
    return {
      pairings: others.map((b, pairing) => ({ pairing, a: vs, b })),
      parsed: [own, ...parsed.filter((_, i) => specs[i] !== vs)],
      specOf,
    };
  }
  if (specs.length < 2) throw new RangeError('a round robin needs at least two agents');
  const pairings: PairingLabels[] = [];
  for (let i = 0; i < specs.length; i++) {
    for (let j = i + 1; j < specs.length; j++) {
      pairings.push({ pairing: pairings.length, a: specs[i] as string, b: specs[j] as string });
    }
  }
  return { pairings, parsed, specOf };
}

/**
 * Chunks small enough to keep every worker busy to the end (about four per
 * worker) and large enough that agents and engines are not made for each game.
 * Chunks hold whole openings (both seat orders). In this thread: one per pairing.
 */
function splitIntoChunks(
  pairings: readonly PairingLabels[],
  games: number,
  settings: MatchSettings,
  moveTimeoutMs: number | undefined,
  workers: number,
): Chunk[] {
  const total = pairings.length * games;
  const size =
    workers === 0 ? games : Math.max(2, Math.min(64, 2 * Math.ceil(total / (workers * 8))));
  const chunks: Chunk[] = [];
  for (const labels of pairings) {
    const scheduled = scheduleGames(games);
    for (let from = 0; from < games; from += size) {
      chunks.push({
        labels,
        games: scheduled.slice(from, from + size),
        settings,
        ...(moveTimeoutMs !== undefined ? { moveTimeoutMs } : {}),
      });
    }
  }
  return chunks;
}

async function runHere(
  chunks: readonly Chunk[],
  specsOf: (chunk: Chunk) => PairingSpecs,
  onGames: (count: number) => void,
  files: JobFiles | undefined,
): Promise<GameRecord[]> {
  const records: GameRecord[] = [];
  // The event loop gets a turn after each game: played here, a long tournament
  // is synchronous work, and Ctrl-C or SIGTERM would wait for its end.
  const afterGame = (): Promise<void> => {
    onGames(1);
    return new Promise((resolve) => setImmediate(resolve));
  };
  for (const chunk of chunks) {
    records.push(...(await runChunk(chunk, afterGame, agentFactoryWith(files), specsOf(chunk))));
  }
  return records;
}
