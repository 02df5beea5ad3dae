import { PassThrough, Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { serveAgent } from '../../agents/engine-server.ts';
import { GreedyAgent } from '../../agents/greedy.ts';
import { MinimaxAgent } from '../../agents/minimax.ts';
import { SolvingAgent } from '../../agents/solving-agent.ts';
import {
  DEFAULT_RULES,
  initialPosition,
  legalActions,
  Random,
  resolveRules,
} from '../../env/index.ts';
import { randomPositions } from './positions.ts';

/** Feeds `lines` to a served agent and returns the answer lines. */
async function serve(
  agent: Parameters<typeof serveAgent>[0],
  lines: string[],
  rules = DEFAULT_RULES,
) {
  const input = new PassThrough();
  const output = new PassThrough();
  const chunks: string[] = [];
  output.on('data', (c: Buffer) => chunks.push(c.toString()));
  const done = serveAgent(agent, input, output, { rules, seed: 1 });
  input.end(lines.map((l) => `${l}\n`).join(''));
  const answered = await done;
  return {
    answered,
    answers: chunks
      .join('')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l)),
  };
}

const request = (pos = initialPosition(), extra: object = {}): string =>
  JSON.stringify({ pits: pos.pits, stores: pos.stores, toMove: pos.toMove, ...extra });

describe('serveAgent', () => {
  it("answers each request with the agent's action, until the input ends", async () => {
    const positions = randomPositions(51, 20, DEFAULT_RULES);
    const { answered, answers } = await serve(
      new MinimaxAgent({ rules: DEFAULT_RULES, depth: 3 }),
      positions.map((p) => request(p, { legal: legalActions(p) })),
    );
    expect(answered).toBe(20);
    // The same choices the agent makes in-process with the session's seeded generator.
    const local = new MinimaxAgent({ rules: DEFAULT_RULES, depth: 3 });
    const rng = Random.fromSeed(1);
    const expected = positions.map((p) =>
      local.act(p, { legal: legalActions(p), rng, rules: DEFAULT_RULES }),
    );
    expect(answers.map((a) => a.action)).toEqual(expected);
  });

  it('answers a bad request with an error line and goes on', async () => {
    const { answered, answers } = await serve(new GreedyAgent(), [
      'not json',
      JSON.stringify({ pits: [4, 4], stores: [0, 0], toMove: 0 }),
      JSON.stringify({ pits: Array(12).fill(4), stores: [0, 1], toMove: 0 }),
      JSON.stringify({
        pits: Array(12).fill(4),
        stores: [0, 0],
        toMove: 0,
        rules: { leftoverTo: 'moon' },
      }),
      JSON.stringify({ pits: Array(12).fill(0), stores: [24, 24], toMove: 0 }),
      '',
      request(),
    ]);
    expect(answered).toBe(1);
    expect(answers).toHaveLength(6);
    expect(answers[0].error).toMatch(/request is not JSON/);
    expect(answers[1].error).toMatch(/^invalid request: pits/);
    expect(answers[2].error).toMatch(/must total 48/);
    expect(answers[3].error).toMatch(/^invalid request: rules\.leftoverTo/);
    expect(answers[4].error).toMatch(/game is over/);
    expect(legalActions(initialPosition())).toContain(answers[5].action);
  });

  it('refuses an overlong line without holding it, answers it when it ends, and goes on', async () => {
    const { answered, answers } = await serve(new GreedyAgent(), [
      'x'.repeat(1_000_000),
      request(),
    ]);
    expect(answered).toBe(1);
    expect(answers[0].error).toBe(
      'request line of 1000000 bytes is longer than 65536: send one JSON object per line',
    );
    expect(legalActions(initialPosition())).toContain(answers[1].action);
  });

  it('survives 600 MB without a newline (a string that large cannot even be made)', async () => {
    const megabyte = Buffer.alloc(1 << 20, 'x');
    const input = Readable.from(
      (function* () {
        for (let i = 0; i < 600; i++) yield megabyte;
      })(),
    );
    const output = new PassThrough();
    const chunks: string[] = [];
    output.on('data', (c: Buffer) => chunks.push(c.toString()));
    const answered = await serveAgent(new GreedyAgent(), input, output, {
      rules: DEFAULT_RULES,
      seed: 1,
    });
    expect(answered).toBe(0);
    expect(JSON.parse(chunks.join(''))).toEqual({
      error: `request line of ${600 * (1 << 20)} bytes is longer than 65536: send one JSON object per line`,
    });
  }, 60_000);

  it("plays by the request's rules, else by the served defaults", async () => {
    // A probe agent that shows which rules it was handed.
    const probe = {
      name: 'probe',
      act: (_: unknown, ctx: { legal: readonly number[]; rules: { captureSeedStays: boolean } }) =>
        ctx.rules.captureSeedStays ? (ctx.legal[0] as number) : (ctx.legal.at(-1) as number),
    };
    const stays = resolveRules({ captureSeedStays: true });
    const plain = await serve(probe, [
      request(),
      request(initialPosition(), { rules: { captureSeedStays: true } }),
    ]);
    expect(plain.answers.map((a) => a.action)).toEqual([5, 0]);
    const served = await serve(
      probe,
      [request(), request(initialPosition(), { rules: { captureSeedStays: false } })],
      stays,
    );
    expect(served.answers.map((a) => a.action)).toEqual([0, 5]);
  });

  it('tells how to start a solver-backed engine for the rules a request names', async () => {
    // Its solver's tables hold values under the rules it was made for (--rules, else the defaults).
    const agent = new SolvingAgent(new GreedyAgent(), {
      name: 'minimax:t=50ms,solve=1',
      rules: DEFAULT_RULES,
      solveMs: 10,
    });
    const { answered, answers } = await serve(agent, [
      request(initialPosition(), { rules: { captureSeedStays: true, leftoverTo: 'owner' } }),
      request(),
    ]);
    expect(answers[0]).toEqual({
      error:
        "minimax:t=50ms,solve=1 was made for captureSeedStays=false,leftoverTo=opponent, not this game's captureSeedStays=true,leftoverTo=owner (its solver's tables hold values under its own rules): start it with --rules captureSeedStays=true,leftoverTo=owner to play these rules",
    });
    expect(answered).toBe(1);
    expect(legalActions(initialPosition())).toContain(answers[1].action);
  });
});
