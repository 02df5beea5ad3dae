import { text } from 'node:stream/consumers';
import { afterAll, describe, expect, it } from 'vitest';
import { launchEngine } from '../../agents/engine-launch.ts';
import { groupRunning } from '../processes.ts';

const groups: number[] = [];
afterAll(() => {
  for (const group of groups) if (groupRunning(group)) process.kill(-group, 'SIGKILL');
});

async function waitFor(condition: () => boolean, what: string, timeoutMs = 20_000): Promise<void> {
  const start = Date.now();
  while (!condition()) {
    if (Date.now() - start > timeoutMs) throw new Error(`${what}: not within ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

describe('launchEngine', () => {
  it('runs the command line as sh -c does: no positional parameters or traps, its output and exit code', async () => {
    // `trap` lists the traps set: none, the launcher's own are undone for the command.
    const engine = launchEngine('trap; echo "$# parameters"; echo "to stderr" >&2; exit 3');
    groups.push(engine.child.pid as number);
    const [stdout, stderr, code] = await Promise.all([
      text(engine.stdout),
      text(engine.stderr),
      new Promise((resolve) => engine.child.once('exit', resolve)),
    ]);
    expect(code).toBe(3);
    expect(stdout).toBe('0 parameters\n');
    expect(stderr).toBe('to stderr\n');
    engine.watcherPipe.destroy();
  });

  it("closing the watcher's pipe kills the engine's whole group, even after a SIGTERM to it", async () => {
    // An engine that ignores SIGTERM: the polite close sends one to the group, which must
    // not take the watcher with it.
    const engine = launchEngine('trap "" TERM; echo ready; exec sleep 600');
    const group = engine.child.pid as number;
    groups.push(group);
    await new Promise((resolve) => engine.stdout.once('data', resolve));
    process.kill(-group, 'SIGTERM');
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect(engine.child.exitCode).toBeNull();
    engine.watcherPipe.destroy();
    const signal = await new Promise((resolve) =>
      engine.child.once('exit', (_code, how) => resolve(how)),
    );
    expect(signal).toBe('SIGKILL');
    await waitFor(() => !groupRunning(group), 'the engine group is gone');
  });
});
