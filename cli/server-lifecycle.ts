import type { Server } from 'node:http';
import { close, listen } from '../serve/listen.ts';
import { CliError } from './fail.ts';

/** Listens for a CLI command; a busy or forbidden port is a one-line CliError. */
export async function listenOrFail(server: Server, port: number, host: string): Promise<string> {
  try {
    return await listen(server, port, host);
  } catch (error) {
    throw new CliError(`cannot listen on ${host}:${port}: ${(error as Error).message}`);
  }
}

/**
 * Waits for Ctrl-C (SIGINT) or SIGTERM, then runs `stopping` (the service's
 * search thread ended, a running search with it) and closes the server.
 */
export async function serveUntilStopped(
  server: Server,
  stopping: () => Promise<void> = async () => {},
): Promise<void> {
  await new Promise<void>((resolve) => {
    process.once('SIGINT', () => resolve());
    process.once('SIGTERM', () => resolve());
  });
  await Promise.all([stopping(), close(server)]);
}
