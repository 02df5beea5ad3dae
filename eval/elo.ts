/** The games of one pairing, from `a`'s side: `points` is a's score (draws count half). */
export interface PairingScore {
  readonly a: string;
  readonly b: string;
  readonly games: number;
  readonly points: number;
}

export interface EloOptions {
  /** The agent rated 0 (default: `random` if it played, else the first agent). */
  readonly anchor?: string;
  /**
   * Virtual drawn games added to every pairing that was played (default 1), so
   * that an agent that won or lost every game still gets a finite rating.
   */
  readonly priorDraws?: number;
}

/**
 * Elo ratings fitted to all games by Bradley-Terry maximum likelihood: each
 * agent has a strength g, a beats b with probability g_a / (g_a + g_b), draws
 * count as half a win each way, and Elo = 400 log10(g / g_anchor). Fitted with
 * the MM algorithm (Hunter 2004), which converges for any connected set of
 * pairings. Agents that played no game get NaN.
 */
export function fitElo(
  agents: readonly string[],
  pairings: readonly PairingScore[],
  options: EloOptions = {},
): Map<string, number> {
  const n = agents.length;
  const index = new Map(agents.map((name, i) => [name, i]));
  const prior = options.priorDraws ?? 1;
  // games[i][j] and wins[i] (points) including the prior's virtual draws.
  const games = Array.from({ length: n }, () => new Float64Array(n));
  const wins = new Float64Array(n);
  for (const p of pairings) {
    const i = index.get(p.a);
    const j = index.get(p.b);
    if (i === undefined || j === undefined)
      throw new Error(`pairing of unknown agent: ${p.a} vs ${p.b}`);
    if (i === j || p.games <= 0) continue;
    const extra = prior;
    (games[i] as Float64Array)[j] = ((games[i] as Float64Array)[j] as number) + p.games + extra;
    (games[j] as Float64Array)[i] = ((games[j] as Float64Array)[i] as number) + p.games + extra;
    wins[i] = (wins[i] as number) + p.points + extra / 2;
    wins[j] = (wins[j] as number) + p.games - p.points + extra / 2;
  }
  const played = agents.map((_, i) => (games[i] as Float64Array).some((g) => g > 0));
  const strength = new Float64Array(n).fill(1);
  for (let iteration = 0; iteration < 100_000; iteration++) {
    let change = 0;
    for (let i = 0; i < n; i++) {
      if (!played[i]) continue;
      let denominator = 0;
      const row = games[i] as Float64Array;
      for (let j = 0; j < n; j++) {
        const g = row[j] as number;
        if (g > 0) denominator += g / ((strength[i] as number) + (strength[j] as number));
      }
      // An agent with no points at all tends to strength 0; keep it tiny but positive.
      const next = Math.max((wins[i] as number) / denominator, 1e-300);
      change = Math.max(change, Math.abs(Math.log(next / (strength[i] as number))));
      strength[i] = next;
    }
    normalize(strength, played);
    if (change < 1e-12) break;
  }
  const anchorName =
    options.anchor ??
    (index.has('random') && played[index.get('random') as number] ? 'random' : agents[0]);
  const anchor = anchorName === undefined ? undefined : index.get(anchorName);
  if (anchorName !== undefined && anchor === undefined)
    throw new Error(`unknown Elo anchor: ${anchorName}`);
  const base = anchor === undefined ? 1 : (strength[anchor] as number);
  return new Map(
    agents.map((name, i) => [
      name,
      played[i] ? 400 * Math.log10((strength[i] as number) / base) : Number.NaN,
    ]),
  );
}

/** Keeps the geometric mean of the strengths at 1 (the fit fixes only their ratios). */
function normalize(strength: Float64Array, played: readonly boolean[]): void {
  let sum = 0;
  let count = 0;
  for (let i = 0; i < strength.length; i++) {
    if (!played[i]) continue;
    sum += Math.log(strength[i] as number);
    count++;
  }
  if (count === 0) return;
  const scale = Math.exp(-sum / count);
  for (let i = 0; i < strength.length; i++)
    if (played[i]) strength[i] = (strength[i] as number) * scale;
}
