/**
 * Seeded results of the whole pipeline, pinned before the redesign of issue
 * 44 (rules as one value, algorithms as plug-ins, one spec parser, folders)
 * and checked after it: agents' moves under every rule variant, the solver's
 * values, a tournament's games, the accuracy benchmark's answers and a short
 * training run of each algorithm (the network's weights to the bit). A change
 * that means to alter behaviour regenerates behaviour-pins.json
 * (PINS_WRITE=1) and says why.
 */
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { registerNetworkKinds } from '../../agents/network/kinds.ts';
import { createAgent } from '../../agents/spec.ts';
import { formatPosition, legalActions, Random, type Rules, resolveRules } from '../../env/index.ts';
import { runAccuracy } from '../../eval/accuracy/benchmark.ts';
import { sampleAccuracySet } from '../../eval/accuracy/sample.ts';
import { loadAccuracySet } from '../../eval/accuracy/shipped-sets.ts';
import { runTournament } from '../../eval/tournament.ts';
import { solve } from '../../solve/index.ts';
import { buildConfig } from '../../train/config/build.ts';
import { PRESETS } from '../../train/config/presets.ts';
import { runPaths } from '../../train/run/paths.ts';
import { train } from '../../train/trainer.ts';
import { randomPositions } from '../agents/positions.ts';

// The kinds that load a network (`policy:`, `az:`, ...), as the command line registers them.
registerNetworkKinds();

const POLICY = 'models/pretrained';
const RULE_VARIANTS: readonly Rules[] = [
  resolveRules({}),
  resolveRules({ captureSeedStays: true }),
  resolveRules({ leftoverTo: 'owner' }),
];
const SEARCHES = [
  'greedy',
  'minimax:4',
  'mcts:100',
  `az:${POLICY},sims=32`,
  `az:${POLICY},sims=16,gumbel=1`,
  `minimax:2,eval=${POLICY}`,
  `policy:${POLICY}`,
];

const sha = (value: unknown): string =>
  createHash('sha256').update(JSON.stringify(value)).digest('hex');

/** Each search's move in 12 random positions under each rule variant, each with its own seeded generator. */
export async function searchMoves(): Promise<Record<string, string>> {
  const moves: Record<string, string> = {};
  for (const [r, rules] of RULE_VARIANTS.entries()) {
    const positions = randomPositions(8101 + r, 12, rules);
    for (const spec of SEARCHES) {
      const agent = await createAgent(spec, { rules });
      const chosen: number[] = [];
      for (const [i, position] of positions.entries()) {
        chosen.push(
          await agent.act(position, {
            legal: legalActions(position, rules),
            rng: Random.fromSeed(i + 1),
            rules,
          }),
        );
      }
      await agent.close?.();
      moves[`${spec} ${r}`] = chosen.join(',');
    }
  }
  return moves;
}

/** The solver's value and best moves of positions from the middle of random games. */
export function solverValues(): string[] {
  return RULE_VARIANTS.flatMap((rules, r) =>
    randomPositions(8201 + r, 6, rules).map((position) => {
      const s = solve(position, { rules, budget: { nodes: 200_000 }, moves: true });
      const { timeMs: _, ...exact } = s;
      return `${formatPosition(position)} ${JSON.stringify(exact)}`;
    }),
  );
}

/** A round robin of every kind of agent, in this thread: its games without their times. */
export async function tournamentGames(): Promise<string> {
  const result = await runTournament({
    specs: ['random', 'greedy', 'minimax:2', 'mcts:30', `policy:${POLICY}`, `az:${POLICY},sims=8`],
    games: 4,
    seed: 11,
    workers: 0,
    rules: { leftoverTo: 'owner' },
  });
  // The games as pinned: their moves (`actions`, recorded since issue 45) replay to these results (test/eval/game.test.ts).
  return sha(result.games.map(({ seconds: _, actions: _moves, ...game }) => game));
}

/** The accuracy benchmark's answers of three agents on a seeded sample of the main set. */
export async function accuracyAnswers(): Promise<string> {
  const set = sampleAccuracySet(loadAccuracySet('main'), 60, 5);
  const report = await runAccuracy({
    specs: ['greedy', 'minimax:3', `policy:${POLICY}`],
    set,
    seed: 3,
    workers: 0,
  });
  return sha(report.agents.map(({ msPerMove: _, ...scored }) => scored));
}

/** A two-iteration smoke run of `algorithm`: its network's weights and its metrics without timings. */
export async function trainingRun(algorithm: 'expert-iteration' | 'ppo'): Promise<string> {
  const config = buildConfig([
    PRESETS.smoke,
    {
      algorithm,
      name: `pins-${algorithm}`,
      runsDir: mkdtempSync(join(tmpdir(), 'ayoayo-pins-')),
      evalAccuracyPositions: 20,
    },
  ]);
  await train(config, { resume: false, log: () => {} });
  const policy = JSON.parse(readFileSync(runPaths(config).policy, 'utf8')) as {
    network: unknown;
    evaluation: unknown;
  };
  const metrics = readFileSync(runPaths(config).metrics, 'utf8')
    .split('\n')
    .map((line) => line.split(','));
  const header = metrics[0] ?? [];
  const kept = header.flatMap((name, i) =>
    name.startsWith('perf/') || name === 'elapsed_s' ? [] : [i],
  );
  return sha({
    network: policy.network,
    evaluation: policy.evaluation,
    metrics: metrics.map((row) => kept.map((i) => row[i])),
  });
}
