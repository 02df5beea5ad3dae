import {
  createServer,
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { Socket } from 'node:net';

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
export const RETRY_AFTER_SECONDS = 1;

/** The limits every server of the project (`serve`, `web`) puts on its clients. */
export interface ConnectionLimits {
  /** Seconds to receive a whole request, headers included (default 10); then 408 and close. */
  readonly requestTimeoutSeconds?: number;
  /**
   * Connections served at once (default 64). At the cap, the connection that
   * has waited longest without a request, if over AT_CAP_IDLE_MS, is closed to
   * make room; otherwise a new connection is answered 503 with Retry-After.
   */
  readonly maxConnections?: number;
}

/** How a server answers a refusal in its own format (JSON for the service, text for the page). */
export type Refuse = (
  res: ServerResponse,
  status: number,
  message: string,
  headers: Record<string, string>,
) => void;

/**
 * What a request listener of a limited server is told: the connection's
 * request has been read and the server is working on its answer, so the
 * connection is no longer waiting on its client and does not give way at the
 * cap (the service's search, the page's file read).
 */
export type LimitedListener = (
  req: IncomingMessage,
  res: ServerResponse,
  working: () => void,
) => void;

/**
 * A node:http server with the limits: a whole request within
 * `requestTimeoutSeconds` (else 408 and the connection closed; Node's
 * defaults hold a stalled request for 5 minutes, checked every 30 s), at
 * most `maxConnections` served at once (ConnectionGate). Throws a RangeError
 * for nonsense limits.
 */
export function createLimitedServer(
  limits: ConnectionLimits,
  refuse: Refuse,
  listener: LimitedListener,
): Server {
  const timeoutMs = 1000 * (limits.requestTimeoutSeconds ?? DEFAULT_REQUEST_TIMEOUT_SECONDS);
  const maxConnections = limits.maxConnections ?? DEFAULT_MAX_CONNECTIONS;
  if (!(timeoutMs > 0)) {
    throw new RangeError(`request timeout must be positive, got ${timeoutMs / 1000} s`);
  }
  if (!Number.isInteger(maxConnections) || maxConnections < 1) {
    throw new RangeError(`max connections must be a positive integer, got ${maxConnections}`);
  }
  const gate = new ConnectionGate(maxConnections);
  const onRequest: RequestListener = (req, res) => {
    if (gate.isOverCap(req.socket)) {
      req.resume();
      refuse(
        res,
        503,
        `the service is busy: ${maxConnections} connections are open, the most it serves at once; retry in ${RETRY_AFTER_SECONDS} s`,
        { 'Retry-After': String(RETRY_AFTER_SECONDS), Connection: 'close' },
      );
      return;
    }
    gate.requestStarted(req.socket, res);
    listener(req, res, () => gate.working(req.socket));
  };
  const server = createServer(
    {
      headersTimeout: timeoutMs,
      requestTimeout: timeoutMs,
      connectionsCheckingInterval: Math.max(10, Math.min(1000, Math.floor(timeoutMs / 4))),
    },
    onRequest,
  );
  server.on('connection', (socket: Socket) => gate.admit(socket));
  return server;
}

/**
 * Keeps the connections served at once at the cap without letting slow
 * clients lock others out: at the cap, the connection that has been waiting
 * longest for its request or its body (or idle after its answer) gives way once
 * that wait passes AT_CAP_IDLE_MS, instead of holding its place for the whole request
 * timeout; a connection whose answer is being worked on never gives way.
 * Failing that, the new connection is answered 503 with Retry-After
 * once it sends its request (and closed after OVER_CAP_TIMEOUT_MS if it sends
 * none). At most as many such connections as the cap are kept; more are closed.
 */
class ConnectionGate {
  /** Served connections, each with when it last started waiting on its client (null: being answered). */
  private readonly served = new Map<Socket, number | null>();
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

  /** A served connection's request came: its body is the next wait, and after the answer, the next request. */
  requestStarted(socket: Socket, res: ServerResponse): void {
    if (!this.served.has(socket)) return;
    this.served.set(socket, Date.now());
    res.once('close', () => {
      if (this.served.has(socket)) this.served.set(socket, Date.now());
    });
  }

  /** The request is read and its answer is being worked on: the connection waits on the server. */
  working(socket: Socket): void {
    if (this.served.has(socket)) this.served.set(socket, null);
  }

  /** Closes the connection that has waited longest on its client, if over AT_CAP_IDLE_MS. */
  private evictIdle(now: number): void {
    let oldest: Socket | null = null;
    let since = now - AT_CAP_IDLE_MS;
    for (const [socket, waiting] of this.served) {
      if (waiting !== null && waiting <= since) {
        oldest = socket;
        since = waiting;
      }
    }
    if (oldest === null) return;
    this.served.delete(oldest);
    oldest.destroy();
  }
}
