import { formatRules, type Rules } from '../../env/rules.ts';

const noted = new Set<string>();

/**
 * The line to say when a network plays under other rule options than it was
 * trained under, or null when they agree. It still plays (its lookahead
 * features follow the game's rules), but what it learned may not carry over.
 */
export function otherRulesLine(agent: string, trained: Rules, game: Rules): string | null {
  const [before, now] = [formatRules(trained), formatRules(game)];
  if (before === now) return null;
  return `ayoayo: ${agent}'s network was trained under ${before} and plays here under ${now}; its lookahead features follow this game's rules`;
}

/** Says `otherRulesLine` on stderr, once per agent and rules in this process. */
export function noteOtherRules(agent: string, trained: Rules, game: Rules): void {
  const line = otherRulesLine(agent, trained, game);
  if (line === null || noted.has(line)) return;
  noted.add(line);
  process.stderr.write(`${line}\n`);
}
