import { mkdtempSync } from 'node:fs';
import type { Server } from 'node:http';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ObservationEncoder } from '../../env/gym/observation.ts';
import {
  legalActions,
  maskToBytes,
  parsePosition,
  position,
  START_NOTATION,
} from '../../env/index.ts';
import { type LoadedPolicy, loadPolicy } from '../../models/load-policy.ts';
import { MlpRunner } from '../../models/mlp-runner.ts';
import { createPolicyServer } from '../../serve/http-server.ts';
import { close, listen } from '../../serve/listen.ts';
import { PolicyService } from '../../serve/policy-service.ts';
import { writeRandomPolicy } from '../export/random-policy.ts';

// Player 0 to move, no move feeds player 1's empty row: the game is over.
const STUCK = '1,0,0,0,1,0/0,0,0,0,0,0/23-23/0';
const MIDGAME = '0,5,5,5,5,4/4,4,4,4,4,4/0-0/1';

interface ActBody {
  action: number;
  pit: number;
  probabilities: number[];
  value: number;
  legal: number[];
}
interface HealthBody {
  status: string;
  policy: Record<string, unknown>;
}

async function json<T = { error: string }>(res: Response): Promise<T> {
  return (await res.json()) as T;
}

/** What the policy should answer, computed without the service. */
function expected(policy: LoadedPolicy, notation: string) {
  const encoder = new ObservationEncoder(policy.observation, policy.rules);
  const obs = new Float32Array(encoder.size);
  const bits = encoder.encode(parsePosition(notation).toState(), obs, 0);
  const mask = maskToBytes(bits, new Uint8Array(6));
  const { probabilities, value } = new MlpRunner(policy.weights).evaluate(obs, mask);
  return { probabilities: Array.from(probabilities), value };
}

describe('ayoayo serve (HTTP policy service)', () => {
  let server: Server;
  let url: string;
  let policy: LoadedPolicy;

  beforeAll(async () => {
    policy = loadPolicy(writeRandomPolicy(mkdtempSync(join(tmpdir(), 'ayoayo-serve-'))));
    server = createPolicyServer(new PolicyService(policy));
    url = await listen(server, 0, '127.0.0.1');
  });
  afterAll(async () => {
    await close(server);
  });

  const post = (body: string, path = '/act') =>
    fetch(`${url}${path}`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body,
    });

  it('GET /health reports the policy and where it came from', async () => {
    const res = await fetch(`${url}/health`);
    expect(res.status).toBe(200);
    const body = await json<HealthBody>(res);
    expect(body.status).toBe('ok');
    expect(body.policy).toMatchObject({
      run: 'random-test-policy',
      iteration: 3,
      observation: {
        encoding: 'counts',
        lookahead: true,
        lookaheadEncoding: 'counts',
        size: policy.weights.inputSize,
      },
      rules: { captureSeedStays: false, leftoverTo: 'opponent' },
    });
  });

  it.each([
    ['notation', START_NOTATION],
    ['notation, player 1 to move', MIDGAME],
  ])('POST /act answers the policy’s move for a position (%s)', async (_, notation) => {
    const res = await post(JSON.stringify({ position: notation }));
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toContain('application/json');
    const body = await json<ActBody>(res);
    const pos = parsePosition(notation);
    const want = expected(policy, notation);
    expect(body.legal).toEqual(legalActions(pos));
    expect(body.legal).toContain(body.action);
    expect(body.pit).toBe(body.action + 6 * pos.toMove);
    expect(body.probabilities).toHaveLength(6);
    body.probabilities.forEach((p: number, a: number) => {
      expect(p).toBeCloseTo(want.probabilities[a] as number, 6);
    });
    expect(body.value).toBeCloseTo(want.value, 6);
    // The most probable legal action is the one chosen.
    expect(body.probabilities[body.action]).toBe(Math.max(...body.probabilities));
  });

  it('accepts a position object and reports illegal actions with probability exactly 0', async () => {
    // Player 1 to move with two empty pits in their row.
    const pos = position({
      pits: [4, 4, 4, 4, 4, 4, 0, 6, 6, 4, 0, 4],
      stores: [2, 2],
      toMove: 1,
    });
    const res = await post(
      JSON.stringify({ position: { pits: pos.pits, stores: pos.stores, toMove: 1 } }),
    );
    expect(res.status).toBe(200);
    const body = await json<ActBody>(res);
    expect(body.legal).toEqual(legalActions(pos));
    expect(body.legal).not.toContain(0);
    expect(body.probabilities[0]).toBe(0);
    expect(body.probabilities[4]).toBe(0);
    expect(body.pit).toBe(body.action + 6);
  });

  it.each([
    ['bad JSON', '{"position": ', /not valid JSON/],
    ['no position', '{}', /position/],
    ['an unknown field', `{"position":"${START_NOTATION}","depth":3}`, /Unrecognized key/],
    ['a malformed notation', '{"position":"4,4,4/4,4,4/0-0/0"}', /pits 0\.\.5.*expected 6/],
    ['seeds that do not total 48', '{"position":"4,4,4,4,4,4/4,4,4,4,4,5/0-0/0"}', /total 48/],
    [
      'a position object with a bad player',
      '{"position":{"pits":[4,4,4,4,4,4,4,4,4,4,4,4],"stores":[0,0],"toMove":2}}',
      /toMove/,
    ],
    ['bad rules', `{"position":"${START_NOTATION}","rules":{"leftoverTo":"nobody"}}`, /leftoverTo/],
    ['a finished game', `{"position":"${STUCK}"}`, /game is over/],
    ['a JSON array', '[1,2]', /expected object/],
  ])('rejects %s with 400 and the reason', async (_, body, reason) => {
    const res = await post(body);
    expect(res.status).toBe(400);
    const answer = await json(res);
    expect(answer.error).toMatch(reason);
  });

  it('refuses a body over the size limit with 413', async () => {
    const huge = JSON.stringify({ position: START_NOTATION, padding: 'x'.repeat(20_000) });
    const res = await post(huge);
    expect(res.status).toBe(413);
    expect((await json(res)).error).toMatch(/over 16384 bytes/);
  });

  it('answers 405 for a wrong method and 404 for an unknown path', async () => {
    const get = await fetch(`${url}/act`);
    expect(get.status).toBe(405);
    expect(get.headers.get('allow')).toBe('POST');
    expect((await json(get)).error).toMatch(/POST/);
    const postHealth = await post('{}', '/health');
    expect(postHealth.status).toBe(405);
    const missing = await fetch(`${url}/nowhere`);
    expect(missing.status).toBe(404);
    expect((await json(missing)).error).toMatch(/\/nowhere/);
  });
});

describe('the HTTP service under slow, many or odd clients', () => {
  let policy: LoadedPolicy;
  const servers: Server[] = [];
  const sockets: Socket[] = [];

  beforeAll(() => {
    policy = loadPolicy(writeRandomPolicy(mkdtempSync(join(tmpdir(), 'ayoayo-serve-'))));
  });
  afterAll(async () => {
    for (const socket of sockets) socket.destroy();
    for (const server of servers) await close(server);
  });

  async function start(options: Parameters<typeof createPolicyServer>[1] = {}): Promise<string> {
    const server = createPolicyServer(new PolicyService(policy), options);
    servers.push(server);
    return listen(server, 0, '127.0.0.1');
  }

  /** A raw connection; resolves once connected, with what it received when it closed. */
  function open(url: string): Promise<{ socket: Socket; closed: Promise<string> }> {
    const { port } = new URL(url);
    const socket = connect(Number(port), '127.0.0.1');
    sockets.push(socket);
    let received = '';
    socket.on('data', (chunk: Buffer) => {
      received += chunk.toString();
    });
    socket.on('error', () => {});
    const closed = new Promise<string>((resolve) => socket.once('close', () => resolve(received)));
    return new Promise((resolve) => socket.once('connect', () => resolve({ socket, closed })));
  }

  it('accepts a body that starts with a UTF-8 byte order mark', async () => {
    const url = await start();
    const res = await fetch(`${url}/act`, {
      method: 'POST',
      body: `\uFEFF${JSON.stringify({ position: START_NOTATION })}`,
    });
    expect(res.status).toBe(200);
    expect(legalActions(parsePosition(START_NOTATION))).toContain(
      (await json<ActBody>(res)).action,
    );
  });

  it('closes a connection whose body stalls, with 408, once the request timeout passes', async () => {
    const url = await start({ requestTimeoutSeconds: 0.3 });
    const { socket, closed } = await open(url);
    const started = Date.now();
    socket.write('POST /act HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\n\r\n{"posi');
    const received = await closed;
    expect(received).toMatch(/^HTTP\/1\.1 408 /);
    // Node's defaults (300 s, checked every 30 s) held it for 326 s.
    expect(Date.now() - started).toBeLessThan(20_000);
  }, 60_000);

  const request = `POST /act HTTP/1.1\r\nHost: x\r\nConnection: close\r\nContent-Length: ${
    JSON.stringify({ position: START_NOTATION }).length
  }\r\n\r\n${JSON.stringify({ position: START_NOTATION })}`;

  it('answers a connection over the cap 503 with Retry-After, and serves the others', async () => {
    const url = await start({ maxConnections: 2 });
    const first = await open(url);
    await open(url);
    // Both places are taken by connections younger than a second: the third must wait.
    const third = await open(url);
    third.socket.write(request);
    const refused = await third.closed;
    expect(refused).toMatch(/^HTTP\/1\.1 503 /);
    expect(refused).toMatch(/\r\nRetry-After: 1\r\n/i);
    expect(refused).toContain('2 connections are open, the most it serves at once');
    first.socket.write(request);
    expect(await first.closed).toMatch(/^HTTP\/1\.1 200 /);
  }, 20_000);

  it('lets slow clients at the cap give way after a second, not the 10 s request timeout', async () => {
    const url = await start({ maxConnections: 4 });
    // Four clients that connect and send half a request, then nothing.
    const slow = await Promise.all([1, 2, 3, 4].map(() => open(url)));
    for (const { socket } of slow) socket.write('POST /act HTTP/1.1\r\nHost: x\r\n');
    await new Promise((resolve) => setTimeout(resolve, 1100));
    const started = Date.now();
    const res = await fetch(`${url}/act`, {
      method: 'POST',
      body: JSON.stringify({ position: START_NOTATION }),
    });
    expect(res.status).toBe(200);
    // Well under the request timeout (10 s) that would otherwise free a place, on a loaded machine too.
    expect(Date.now() - started).toBeLessThan(8_000);
    // The slowest one gave way; the others still hold their places until a new client needs one.
    const gone = await Promise.race([
      Promise.any(slow.map((s) => s.closed.then(() => true))),
      new Promise((resolve) => setTimeout(() => resolve(false), 1000)),
    ]);
    expect(gone).toBe(true);
  }, 20_000);

  it('refuses nonsense limits', () => {
    const service = new PolicyService(policy);
    expect(() => createPolicyServer(service, { requestTimeoutSeconds: 0 })).toThrow(
      'request timeout must be positive, got 0 s',
    );
    expect(() => createPolicyServer(service, { maxConnections: 0.5 })).toThrow(
      'max connections must be a positive integer, got 0.5',
    );
  });
});
