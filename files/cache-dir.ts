import { homedir } from 'node:os';
import { join } from 'node:path';

/** The per-user cache folder of ayoayo: $XDG_CACHE_HOME/ayoayo, else ~/.cache/ayoayo. */
export function cacheDir(env: NodeJS.ProcessEnv = process.env): string {
  const base = env.XDG_CACHE_HOME?.length ? env.XDG_CACHE_HOME : join(homedir(), '.cache');
  return join(base, 'ayoayo');
}
