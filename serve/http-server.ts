import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { RequestError } from './act-request.ts';
import type { PolicyService } from './policy-service.ts';

/** Request bodies larger than this get a 413: a position is well under 200 bytes. */
export const DEFAULT_MAX_BODY_BYTES = 16 * 1024;
/** Seconds a client has to send a request's headers, and the whole request. */
export const DEFAULT_REQUEST_TIMEOUT_SECONDS = 10;
/** Connections served at once; more are answered 503 with Retry-After. */
export const DEFAULT_MAX_CONNECTIONS = 64;
/**
 * At the cap, a connection that has gone this long without sending a request
 * (a slow client, or an idle keep-alive one) makes room for a new one.
 */
export const AT_CAP_IDLE_MS = 1000;
/** How long a connection over the cap has to send its request for its 503. */
const OVER_CAP_TIMEOUT_MS = 1000;
/** Seconds a client over the cap is told to wait (Retry-After). */
const RETRY_AFTER_SECONDS = 1;

export interface PolicyServerOptions {
  readonly maxBodyBytes?: number;
  /** Seconds to receive a whole request, headers included (default 10); then 408 and close. */
  readonly requestTimeoutSeconds?: number;
  /**
   * Connections served at once (default 64). At the cap, the connection that
   * has waited longest without a request, if over AT_CAP_IDLE_MS, is closed to
   * make room; otherwise a new connection is answered 503 with Retry-After.
   */
  readonly maxConnections?: number;
}

const ROUTES: Record<string, string> = { '/act': 'POST', '/health': 'GET' };

function send(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = `${JSON.stringify(body)}\n`;
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    'Cache-Control': 'no-store',
    ...headers,
  });
  res.end(text);
}

/** Reads the whole body, refusing (413) as soon as it grows past the limit. */
function readBody(req: IncomingMessage, limit: number): Promise<string> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    return Promise.reject(new RequestError(413, `request body over ${limit} bytes`));
  }
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        req.off('data', onData);
        reject(new RequestError(413, `request body over ${limit} bytes`));
        return;
      }
      chunks.push(chunk);
    };
    req.on('data', onData);
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function parseJson(text: string): unknown {
  try {
    // A UTF-8 byte order mark (some Windows tools write one) is not part of the JSON.
    return JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text);
  } catch (error) {
    throw new RequestError(400, `the body is not valid JSON: ${(error as Error).message}`);
  }
}

async function handle(
  service: PolicyService,
  limit: number,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<void> {
  const url = new URL(req.url ?? '/', 'http://localhost');
  const path = url.pathname;
  const method = ROUTES[path];
  if (method === undefined) {
    send(res, 404, { error: `no such endpoint ${path}: use POST /act or GET /health` });
    return;
  }
  if (req.method !== method) {
    send(
      res,
      405,
      { error: `${path} accepts ${method} only, not ${req.method}` },
      { Allow: method },
    );
    return;
  }
  if (path === '/health') {
    send(res, 200, { status: 'ok', policy: service.describe() });
    return;
  }
  const body = parseJson(await readBody(req, limit));
  send(res, 200, service.act(body, { explain: url.searchParams.get('explain') === '1' }));
}

/**
 * The policy as an HTTP service (node:http): `POST /act` with
 * `{ position, rules? }` answers `{ action, pit, probabilities, value, legal }`
 * (`POST /act?explain=1` adds the `observation` the network was given);
 * `GET /health` answers `{ status: 'ok', policy }`. Every error is JSON
 * `{ error }` with a 4xx status naming what is wrong (5xx only for bugs).
 */
export function createPolicyServer(
  service: PolicyService,
  options: PolicyServerOptions = {},
): Server {
  const limit = options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  const timeoutMs = 1000 * (options.requestTimeoutSeconds ?? DEFAULT_REQUEST_TIMEOUT_SECONDS);
  const maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  if (!(timeoutMs > 0)) {
    throw new RangeError(`request timeout must be positive, got ${timeoutMs / 1000} s`);
  }
  if (!Number.isInteger(maxConnections) || maxConnections < 1) {
    throw new RangeError(`max connections must be a positive integer, got ${maxConnections}`);
  }
  const gate = new ConnectionGate(maxConnections);
  // Node's defaults let a stalled request hold a connection for 5 minutes, checked every 30 s.
  const server = createServer(
    {
      headersTimeout: timeoutMs,
      requestTimeout: timeoutMs,
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(timeoutMs / 4))),
    },
    (req, res) => {
      if (gate.isOverCap(req.socket)) {
        req.resume();
        send(
          res,
          503,
          {
            error: `the service is busy: ${maxConnections} connections are open, the most it serves at once; retry in ${RETRY_AFTER_SECONDS} s`,
          },
          { 'Retry-After': String(RETRY_AFTER_SECONDS), Connection: 'close' },
        );
        return;
      }
      gate.requestStarted(req.socket, res);
      handle(service, limit, req, res).catch((error: unknown) => {
        if (error instanceof RequestError) {
          // After a 413 the rest of the body is not read: close the connection.
          const headers: Record<string, string> =
            error.status === 413 ? { Connection: 'close' } : {};
          send(res, error.status, { error: error.message }, headers);
          if (error.status === 413) req.resume();
          return;
        }
        send(res, 500, { error: `internal error: ${(error as Error).message}` });
      });
    },
  );
  server.on('connection', (socket: Socket) => gate.admit(socket));
  return server;
}

/**
 * Keeps the connections served at once at the cap without letting slow
 * clients lock others out: at the cap, the connection that has been waiting
 * longest for its request or its body (or idle after its answer) gives way once
 * that wait passes AT_CAP_IDLE_MS, instead of holding its place for the whole request
 * timeout; failing that, the new connection is answered 503 with Retry-After
 * once it sends its request (and closed after OVER_CAP_TIMEOUT_MS if it sends
 * none). At most as many such connections as the cap are kept; more are closed.
 */
class ConnectionGate {
  /** Served connections, each with when it last started waiting (connected, or answered). */
  private readonly served = new Map<Socket, number>();
  private readonly overCap = new Set<Socket>();

  constructor(private readonly max: number) {}

  admit(socket: Socket): void {
    const now = Date.now();
    if (this.served.size >= this.max) this.evictIdle(now);
    if (this.served.size < this.max) {
      this.served.set(socket, now);
      socket.once('close', () => this.served.delete(socket));
      return;
    }
    if (this.overCap.size >= this.max) {
      socket.destroy();
      return;
    }
    this.overCap.add(socket);
    socket.once('close', () => this.overCap.delete(socket));
    socket.setTimeout(OVER_CAP_TIMEOUT_MS, () => socket.destroy());
  }

  isOverCap(socket: Socket): boolean {
    return this.overCap.has(socket);
  }

  /**
   * A served connection's request came: its body is the next wait (a request
   * is answered synchronously once read), and after the answer, the next request.
   */
  requestStarted(socket: Socket, res: ServerResponse): void {
    if (!this.served.has(socket)) return;
    this.served.set(socket, Date.now());
    res.once('close', () => {
      if (this.served.has(socket)) this.served.set(socket, Date.now());
    });
  }

  /** Closes the connection that has waited longest for its request, if over AT_CAP_IDLE_MS. */
  private evictIdle(now: number): void {
    let oldest: Socket | null = null;
    let since = now - AT_CAP_IDLE_MS;
    for (const [socket, waiting] of this.served) {
      if (waiting <= since) {
        oldest = socket;
        since = waiting;
      }
    }
    if (oldest === null) return;
    this.served.delete(oldest);
    oldest.destroy();
  }
}
