import { registerNetworkKinds } from '../../agents/network/kinds.ts';
import type { JobFiles } from '../../agents/spec.ts';
import { gamesProgressBar } from '../../display/progress.ts';
import type { Rules } from '../../env/rules.ts';
import type { PairingResult } from '../../eval/match.ts';
import { table } from '../../eval/report.ts';
import { runTournament } from '../../eval/tournament.ts';
import { readPolicyText } from '../../models/load-policy.ts';

// Training names agents by spec (the gauntlet's `policy:PATH`, the evaluation's
// opponents and PPO's baselines, checked when a run starts): the kinds that load
// a network are registered once training's evaluation is loaded.
registerNetworkKinds();

/** A gauntlet pairing from the policy's side (score = (wins + draws / 2) / games). */
export type EvaluationRow = Pick<
  PairingResult,
  'games' | 'wins' | 'draws' | 'losses' | 'score' | 'ci'
> & {
  readonly opponent: string;
};

export interface EvaluationResult {
  readonly policy: string;
  readonly rows: readonly EvaluationRow[];
  /** Elo of the policy with `random` at 0 (when random is among the opponents). */
  readonly elo: number | null;
  readonly table: string;
  readonly seconds: number;
}

export interface EvaluationRequest {
  readonly policyPath: string;
  readonly opponents: readonly string[];
  readonly games: number;
  readonly seed: number;
  readonly workers: number;
  readonly rules: Rules;
  readonly openingPlies: number;
  /** Show a progress bar with rate and ETA. */
  readonly onProgress?: boolean;
  /**
   * A queue job's files: the only files the opponents may read. The policy's
   * own file, written by this run, joins them.
   */
  readonly files?: JobFiles;
}

/**
 * The policy alone (argmax, no search) against each baseline, as a gauntlet
 * through the tournament code: half the games from each seat, seeded openings.
 */
export async function evaluatePolicy(request: EvaluationRequest): Promise<EvaluationResult> {
  const policy = `policy:${request.policyPath}`;
  const bar = gamesProgressBar({ quiet: request.onProgress !== true, label: 'evaluate' });
  const result = await runTournament({
    specs: request.opponents,
    vs: policy,
    games: request.games,
    seed: request.seed,
    workers: request.workers,
    openingPlies: request.openingPlies,
    rules: request.rules,
    onProgress: ({ done, total }) => bar.update(done, total),
    ...(request.files !== undefined
      ? {
          files: {
            ...request.files,
            [request.policyPath]: readPolicyText(request.policyPath).text,
          },
        }
      : {}),
  });
  bar.stop();
  // In a gauntlet the `vs` agent is always side a, so results are already from the policy's side.
  const rows: EvaluationRow[] = result.pairings.map((p) => {
    if (p.a !== policy)
      throw new Error(`gauntlet pairing ${p.a} vs ${p.b} is not from ${policy}'s side`);
    const { games, wins, draws, losses, score, ci } = p;
    return { opponent: p.b, games, wins, draws, losses, score, ci };
  });
  const rating = result.ratings.find((r) => r.agent === policy);
  const elo = result.anchor === 'random' && rating !== undefined ? rating.elo : null;
  return { policy, rows, elo, table: formatTable(rows, elo), seconds: result.elapsedSeconds };
}

function formatTable(rows: readonly EvaluationRow[], elo: number | null): string {
  const pct = (x: number) => (x * 100).toFixed(1);
  const body = table(
    ['against', 'games', 'won', 'drawn', 'lost', 'score', '95% CI'],
    rows.map((r) => [
      r.opponent,
      String(r.games),
      String(r.wins),
      String(r.draws),
      String(r.losses),
      `${pct(r.score)}%`,
      `${pct(r.ci[0])}-${pct(r.ci[1])}%`,
    ]),
  );
  return elo === null ? body : `${body}\nElo of the policy (random = 0): ${Math.round(elo)}`;
}
