import type { Argv } from 'yargs';
import {
  type ConnectionLimits,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_REQUEST_TIMEOUT_SECONDS,
} from '../serve/limited-server.ts';
import { CliError, UsageError } from './fail.ts';

/** The flags of a command that listens (serve, web): where, and the limits on its clients. */
export interface ListenArgs {
  port: number;
  host: string;
  requestTimeout: number;
  maxConnections: number;
}

/** `--port` (default `port`), `--host`, `--request-timeout`, `--max-connections`. */
export function listenOptions<T>(y: Argv<T>, port: number): Argv<T & ListenArgs> {
  return y
    .option('port', { type: 'number', default: port, describe: 'TCP port (0: any free port)' })
    .option('host', {
      type: 'string',
      default: '127.0.0.1',
      describe: 'address to listen on (127.0.0.1: this machine only)',
    })
    .option('request-timeout', {
      type: 'number',
      default: DEFAULT_REQUEST_TIMEOUT_SECONDS,
      describe: 'seconds a client has to send a whole request; then 408 and the connection closes',
    })
    .option('max-connections', {
      type: 'number',
      default: DEFAULT_MAX_CONNECTIONS,
      describe:
        'connections served at once; at the cap one waiting over 1 s for its request makes room, else a new one gets 503 with Retry-After',
    }) as unknown as Argv<T & ListenArgs>;
}

/** Checks the listening flags; the limits for createLimitedServer. */
export function connectionLimits(argv: ListenArgs): ConnectionLimits {
  if (!Number.isInteger(argv.port) || argv.port < 0 || argv.port > 65535) {
    throw new CliError(`--port must be an integer from 0 to 65535, got ${argv.port}`);
  }
  if (!(argv.requestTimeout > 0)) {
    throw new UsageError(
      `--request-timeout must be a positive number of seconds, got ${argv.requestTimeout}`,
    );
  }
  if (!Number.isInteger(argv.maxConnections) || argv.maxConnections < 1) {
    throw new UsageError(
      `--max-connections must be a positive integer, got ${argv.maxConnections}`,
    );
  }
  return { requestTimeoutSeconds: argv.requestTimeout, maxConnections: argv.maxConnections };
}
