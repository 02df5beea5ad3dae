import { workerData } from 'node:worker_threads';
import { PolicySearch } from '../agents/network/policy-search.ts';
import { PerfectSearch, UnservedRulesError } from '../agents/perfect-search.ts';
import { parsePosition } from '../env/index.ts';
import { loadPolicy } from '../models/load-policy.ts';
import type { MoveSearch } from './policy-service.ts';
import type { SearchAnswer, SearchTask, SearchThreadSetup } from './search-task.ts';

/**
 * A service's search thread (search-thread.ts), piscina's entry point: it
 * makes the search once, as the thread starts (the policy read again, the
 * tables read from the cache, where the `serve` command made sure they are),
 * and answers one position at a time. Compiled, this file is
 * `dist/serve/search-worker.js` and piscina loads it directly; in the
 * sources, `serve/search-worker.js` registers tsx first and then delegates here.
 */
async function makeSearch(setup: SearchThreadSetup): Promise<MoveSearch> {
  const policy = loadPolicy(setup.policyPath);
  if (setup.search.trim() === 'perfect') return new PerfectSearch(policy.rules);
  return PolicySearch.create(policy, setup.search, '--search');
}

const search = makeSearch(workerData as SearchThreadSetup);
// A failure is reported by the first task, which awaits it.
search.catch(() => {});

export default async function runSearchTask(task: SearchTask): Promise<SearchAnswer> {
  const made = await search;
  if (task.kind === 'ready') return { kind: 'ready', label: made.label };
  try {
    const result = await made.search(parsePosition(task.position), task.rules);
    return { kind: 'found', result };
  } catch (error) {
    // The error's class does not cross threads: a refusal goes back as an answer.
    if (error instanceof UnservedRulesError) return { kind: 'refused', message: error.message };
    throw error;
  }
}
