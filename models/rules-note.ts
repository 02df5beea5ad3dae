import type { Rules } from '../env/rules.ts';

const noted = new Set<string>();

const show = (rules: Rules): string =>
  `captureSeedStays=${rules.captureSeedStays}, leftoverTo=${rules.leftoverTo}`;

/**
 * The line to say when a network plays under other rule options than it was
 * trained under, or null when they agree. It still plays (its lookahead
 * features follow the game's rules), but what it learned may not carry over.
 */
export function otherRulesLine(agent: string, trained: Rules, game: Rules): string | null {
  if (trained.captureSeedStays === game.captureSeedStays && trained.leftoverTo === game.leftoverTo)
    return null;
  return `ayoayo: ${agent}'s network was trained under ${show(trained)} and plays here under ${show(game)}; its lookahead features follow this game's rules`;
}

/** Says `otherRulesLine` on stderr, once per agent and rules in this process. */
export function noteOtherRules(agent: string, trained: Rules, game: Rules): void {
  const line = otherRulesLine(agent, trained, game);
  if (line === null || noted.has(line)) return;
  noted.add(line);
  process.stderr.write(`${line}\n`);
}
