import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** A long-running `ayoayo` command (serve, web) started as a user would, stopped with Ctrl-C. */
export interface RunningCommand {
  readonly url: string;
  readonly stdout: () => string;
  /** Sends SIGINT (or `signal`) and resolves with the exit code and stderr. */
  stop(signal?: NodeJS.Signals): Promise<{ code: number | null; stderr: string }>;
}

/** Which `ayoayo`: by default this repository's bin/ayoayo.js, run in the repository. */
export interface CommandLocation {
  readonly bin?: string;
  readonly cwd?: string;
  /** Its environment (default: this process's). */
  readonly env?: NodeJS.ProcessEnv;
}

/** Starts `ayoayo ...args` and waits until it prints its http:// address. */
export function startCommand(
  args: readonly string[],
  { bin = 'bin/ayoayo.js', cwd = root, env = process.env }: CommandLocation = {},
): Promise<RunningCommand> {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [bin, ...args], {
    cwd,
    env,
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (chunk: Buffer) => {
    stdout += chunk.toString();
  });
  child.stderr.on('data', (chunk: Buffer) => {
    stderr += chunk.toString();
  });
  const exited = new Promise<number | null>((resolve) =>
    child.once('exit', (code) => resolve(code)),
  );
  return new Promise((resolve, reject) => {
    // A safety net only (a hung start is killed rather than left behind); loaded machines start slowly.
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`ayoayo ${args.join(' ')} printed no address in 5 minutes: ${stderr}`));
    }, 300_000);
    const onData = () => {
      const match = /http:\/\/127\.0\.0\.1:\d+/.exec(stdout);
      if (!match) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      resolve({
        url: match[0],
        stdout: () => stdout,
        stop: async (signal: NodeJS.Signals = 'SIGINT') => {
          child.kill(signal);
          return { code: await exited, stderr };
        },
      });
    };
    child.stdout.on('data', onData);
    exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`ayoayo ${args.join(' ')} exited with ${code}: ${stderr}`));
    });
  });
}
