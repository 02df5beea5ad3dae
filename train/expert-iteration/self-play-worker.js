// Expert iteration's self-play worker entry when running from the TypeScript
// sources (tsx, vitest): register tsx in this thread, then run
// self-play-worker.ts. The compiled package has no such shim: tsc turns
// self-play-worker.ts itself into dist/train/expert-iteration/self-play-worker.js.
// No top-level await: piscina may first try to require() this file.
import { register } from 'tsx/esm/api';

register();
const task = import('./self-play-worker.ts');

/** @param {import('./shard.ts').ShardTask} message */
export default async function run(message) {
  const { default: playShardTask } = await task;
  return playShardTask(message);
}
