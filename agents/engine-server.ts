import type { Readable, Writable } from 'node:stream';
import {
  describeIssues,
  legalActions,
  position as makePosition,
  Random,
  type Rules,
  resolveRules,
} from '../env/index.ts';
import type { Agent } from './agent.ts';
import { boundedLines } from './line-splitter.ts';
import { engineRequestSchema, quote } from './protocol.ts';

/** Longest request line read, in bytes (a request is about 150). */
export const MAX_REQUEST_LENGTH = 64 * 1024;

export interface ServeOptions {
  /** Rules for requests that do not name them (request fields override these). */
  readonly rules: Rules;
  /** Seed of the generator the agent uses for its random choices. */
  readonly seed: number;
}

/**
 * Serves an agent over the external engine protocol (./protocol.ts): reads one
 * request per line from `input`, writes one answer per line to `output`, until
 * the input ends. A request that cannot be answered gets `{"error": "..."}`
 * and the session goes on; so does a line over MAX_REQUEST_LENGTH, which is
 * skipped as it arrives (never held in memory) and answered when it ends.
 * Returns the number of requests answered with a move.
 */
export async function serveAgent(
  agent: Agent,
  input: Readable,
  output: Writable,
  options: ServeOptions,
): Promise<number> {
  const rng = Random.fromSeed(options.seed);
  let answered = 0;
  for await (const read of boundedLines(input, MAX_REQUEST_LENGTH)) {
    let reply: { action: number } | { error: string };
    if ('tooLong' in read) {
      reply = {
        error: `request line of ${read.tooLong} bytes is longer than ${MAX_REQUEST_LENGTH}: send one JSON object per line`,
      };
    } else {
      if (read.line.trim().length === 0) continue;
      try {
        reply = { action: await answer(agent, read.line, options.rules, rng) };
        answered++;
      } catch (err) {
        reply = { error: err instanceof Error ? err.message : String(err) };
      }
    }
    output.write(`${JSON.stringify(reply)}\n`);
  }
  return answered;
}

/**
 * A request's own `legal` list must be the position's legal actions (in any
 * order): the engine plays by the rules, so a list that differs (a client with
 * other rules, or a bug) is refused rather than silently overruled.
 */
function checkLegalList(given: readonly number[], legal: readonly number[]): void {
  const sorted = [...given].sort((a, b) => a - b);
  if (sorted.length !== legal.length || sorted.some((a, i) => a !== legal[i])) {
    throw new Error(
      `"legal" is [${given.join(',')}] but the position's legal actions are [${legal.join(',')}]: send the position's own legal actions, or leave "legal" out`,
    );
  }
}

async function answer(agent: Agent, line: string, defaults: Rules, rng: Random): Promise<number> {
  let json: unknown;
  try {
    json = JSON.parse(line);
  } catch {
    throw new Error(`request is not JSON: ${quote(line)}`);
  }
  const parsed = engineRequestSchema.safeParse(json);
  if (!parsed.success) {
    throw new Error(`invalid request: ${describeIssues(parsed.error, undefined, 1)}`);
  }
  const request = parsed.data;
  const rules = resolveRules({ ...defaults, ...request.rules });
  const pos = makePosition(request);
  const legal = legalActions(pos, rules);
  if (legal.length === 0) throw new Error('the game is over: there is no legal action');
  if (request.legal !== undefined) checkLegalList(request.legal, legal);
  const action = await agent.act(pos, { legal, rng, rules });
  if (!legal.includes(action)) {
    throw new Error(
      `${agent.name} chose illegal action ${action}; legal actions: ${legal.join(', ')}`,
    );
  }
  return action;
}
