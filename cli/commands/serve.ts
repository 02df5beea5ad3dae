import type { Argv } from 'yargs';
import {
  type PolicySearchSettings,
  parsePolicySearchOptions,
} from '../../agents/network/policy-search.ts';
import { choosePolicyPath, PRETRAINED_POLICY } from '../../models/export/default-policy.ts';
import { inferenceEngine } from '../../models/inference/inference-engine.ts';
import { loadPolicy } from '../../models/load-policy.ts';
import { createPolicyServer } from '../../serve/http-server.ts';
import { PolicyService } from '../../serve/policy-service.ts';
import {
  DEFAULT_SEARCH_TIMEOUT_SECONDS,
  DEFAULT_SEARCHES_WAITING,
  SearchThread,
} from '../../serve/search-thread.ts';
import { loadBook } from '../../solve/book/cache/load-book.ts';
import { cacheSolvingAgentEndgame } from '../../solve/endgame/cache/shared-tables.ts';
import { connectionLimits, type ListenArgs, listenOptions } from '../connection-options.ts';
import { CliError, defineCommand, runCommand, UsageError } from '../fail.ts';
import { inferenceOption } from '../inference-option.ts';
import { listenOrFail, serveUntilStopped } from '../server-lifecycle.ts';

interface ServeArgs extends ListenArgs {
  policy?: string;
  search?: string;
  searchTimeout: number;
  searchesWaiting: number;
}

/** How the start line names the service's search: the perfect player, or PUCT's settings. */
function searchWords(settings: PolicySearchSettings | 'perfect' | null): string {
  if (settings === null) return '';
  if (settings === 'perfect') {
    return ' with the perfect player (the opening book, then the exact solver)';
  }
  const { solver, description } = settings;
  return ` with ${solver !== null ? 'the exact solver, then ' : ''}a PUCT search (${description})`;
}

export const serveCommand = defineCommand<ServeArgs>({
  command: 'serve',
  describe: 'Serve a trained policy over HTTP: POST /act with a position, GET /health',
  builder: (y) =>
    listenOptions(
      y
        .option('inference', inferenceOption)
        .option('policy', {
          type: 'string',
          describe: `a policy file, checkpoint or run folder (default: ${PRETRAINED_POLICY} when present)`,
        })
        .option('search', {
          type: 'string',
          describe:
            "answer with a PUCT search over the policy instead of its top move: an az: agent's options, e.g. sims=200 or t=100ms,c=1.5 ('' for the defaults; t=50ms,solve=1: the exact solver first, with half the time; perfect: the perfect player); searches run on a thread of their own, one at a time",
        })
        .option('search-timeout', {
          type: 'number',
          default: DEFAULT_SEARCH_TIMEOUT_SECONDS,
          describe:
            "seconds a request's search may take, its wait for other searches included; then it is stopped and the request gets 503",
        })
        .option('searches-waiting', {
          type: 'number',
          default: DEFAULT_SEARCHES_WAITING,
          describe:
            'requests that may wait while a search runs; more get 503 with Retry-After at once',
        }),
      8080,
    )
      .example('$0 serve --policy runs/quickstart --port 8080', '')
      .example('$0 serve --search sims=200', 'moves from 200 PUCT simulations a request')
      .example(
        `curl -s -X POST localhost:8080/act -d '{"position":"4,4,4,4,4,4/4,4,4,4,4,4/0-0/0"}'`,
        'ask for a move',
      ) as unknown as Argv<ServeArgs>,
  handler: runCommand(async (argv: ServeArgs) => {
    const limits = connectionLimits(argv);
    if (!(argv.searchTimeout > 0 && argv.searchTimeout <= 24 * 3600)) {
      throw new UsageError(
        `--search-timeout must be a positive number of seconds, up to a day (86400), got ${argv.searchTimeout}`,
      );
    }
    if (!Number.isInteger(argv.searchesWaiting) || argv.searchesWaiting < 0) {
      throw new UsageError(
        `--searches-waiting must be a non-negative integer, got ${argv.searchesWaiting}`,
      );
    }
    const path = choosePolicyPath(argv.policy);
    if (path === null) {
      throw new CliError(
        `no --policy given and there is no pretrained policy at ${PRETRAINED_POLICY}`,
      );
    }
    const policy = loadPolicy(path);
    const search = argv.search;
    const perfect = search?.trim() === 'perfect';
    const settings =
      search === undefined || perfect ? null : parsePolicySearchOptions(search, '--search');
    if (settings?.timeMs != null && settings.timeMs > argv.searchTimeout * 1000) {
      throw new UsageError(
        `--search t=${settings.timeMs / 1000}s is longer than --search-timeout (${argv.searchTimeout} s), the most a request's search may take: give a larger --search-timeout`,
      );
    }
    // The tables the search reads under the policy's rules are made now, never by a request.
    if (perfect || settings?.solver != null) cacheSolvingAgentEndgame(policy.rules);
    if (perfect) await loadBook(policy.rules);
    const thread =
      search === undefined
        ? null
        : await SearchThread.start({
            policyPath: path,
            search,
            timeoutSeconds: argv.searchTimeout,
            maxWaiting: argv.searchesWaiting,
          });
    try {
      const inference = await (await inferenceEngine()).create(policy.weights, { batched: false });
      const service = new PolicyService(policy, thread, inference.forward);
      const server = createPolicyServer(service, limits);
      const url = await listenOrFail(server, argv.port, argv.host);
      process.stdout.write(
        `Serving ${service.policy.path}${searchWords(perfect ? 'perfect' : settings)} on ${url} (POST /act, GET /health); Ctrl-C stops\n`,
      );
      await serveUntilStopped(server, async () => thread?.close());
    } finally {
      await thread?.close();
    }
  }),
});
