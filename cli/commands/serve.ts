import type { Argv } from 'yargs';
import { PolicySearch } from '../../agents/network/policy-search.ts';
import { PerfectSearch } from '../../agents/perfect-search.ts';
import { choosePolicyPath, PRETRAINED_POLICY } from '../../models/export/default-policy.ts';
import { inferenceEngine } from '../../models/inference/inference-engine.ts';
import { loadPolicy } from '../../models/load-policy.ts';
import {
  createPolicyServer,
  DEFAULT_MAX_CONNECTIONS,
  DEFAULT_REQUEST_TIMEOUT_SECONDS,
} from '../../serve/http-server.ts';
import { PolicyService } from '../../serve/policy-service.ts';
import { CliError, defineCommand, runCommand, UsageError } from '../fail.ts';
import { inferenceOption } from '../inference-option.ts';
import { listenOrFail, serveUntilStopped } from '../server-lifecycle.ts';

interface ServeArgs {
  policy?: string;
  search?: string;
  port: number;
  host: string;
  requestTimeout: number;
  maxConnections: number;
}

/** How the start line names the service's search. */
function searchWords(search: PolicySearch | PerfectSearch | null): string {
  if (search === null) return '';
  if (search instanceof PerfectSearch) {
    return ' with the perfect player (the opening book, then the exact solver)';
  }
  return ` with ${search.solver !== null ? 'the exact solver, then ' : ''}a PUCT search (${search.description})`;
}

export const serveCommand = defineCommand<ServeArgs>({
  command: 'serve',
  describe: 'Serve a trained policy over HTTP: POST /act with a position, GET /health',
  builder: (y) =>
    y
      .option('inference', inferenceOption)
      .option('policy', {
        type: 'string',
        describe: `a policy file, checkpoint or run folder (default: ${PRETRAINED_POLICY} when present)`,
      })
      .option('search', {
        type: 'string',
        describe:
          "answer with a PUCT search over the policy instead of its top move: an az: agent's options, e.g. sims=200 or t=100ms,c=1.5 ('' for the defaults; t=50ms,solve=1: the exact solver first, with half the time; perfect: the perfect player)",
      })
      .option('port', { type: 'number', default: 8080, describe: 'TCP port (0: any free port)' })
      .option('host', {
        type: 'string',
        default: '127.0.0.1',
        describe: 'address to listen on (127.0.0.1: this machine only)',
      })
      .option('request-timeout', {
        type: 'number',
        default: DEFAULT_REQUEST_TIMEOUT_SECONDS,
        describe:
          'seconds a client has to send a whole request; then 408 and the connection closes',
      })
      .option('max-connections', {
        type: 'number',
        default: DEFAULT_MAX_CONNECTIONS,
        describe:
          'connections served at once; at the cap one waiting over 1 s for its request makes room, else a new one gets 503 with Retry-After',
      })
      .example('$0 serve --policy runs/quickstart --port 8080', '')
      .example('$0 serve --search sims=200', 'moves from 200 PUCT simulations a request')
      .example(
        `curl -s -X POST localhost:8080/act -d '{"position":"4,4,4,4,4,4/4,4,4,4,4,4/0-0/0"}'`,
        'ask for a move',
      ) as unknown as Argv<ServeArgs>,
  handler: runCommand(async (argv: ServeArgs) => {
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
    const path = choosePolicyPath(argv.policy);
    if (path === null) {
      throw new CliError(
        `no --policy given and there is no pretrained policy at ${PRETRAINED_POLICY}`,
      );
    }
    const policy = loadPolicy(path);
    // With solve=1 the solver's endgame table, as the solve=1 agents read it (built into the cache on first use).
    const search =
      argv.search === undefined
        ? null
        : argv.search.trim() === 'perfect'
          ? new PerfectSearch(policy.rules)
          : await PolicySearch.create(policy, argv.search, '--search');
    const inference = await (await inferenceEngine()).create(policy.weights, { batched: false });
    const service = new PolicyService(policy, search, inference.forward);
    const server = createPolicyServer(service, {
      requestTimeoutSeconds: argv.requestTimeout,
      maxConnections: argv.maxConnections,
    });
    const url = await listenOrFail(server, argv.port, argv.host);
    process.stdout.write(
      `Serving ${service.policy.path}${searchWords(search)} on ${url} (POST /act, GET /health); Ctrl-C stops\n`,
    );
    await serveUntilStopped(server);
  }),
});
