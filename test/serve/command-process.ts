import { type ChildProcessWithoutNullStreams, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('../..', import.meta.url));

/** A long-running `ayoayo` command (serve, web) started as a user would, stopped with Ctrl-C. */
export interface RunningCommand {
  readonly url: string;
  readonly stdout: () => string;
  /** Sends SIGINT and resolves with the exit code and stderr. */
  stop(): Promise<{ code: number | null; stderr: string }>;
}

/** Which `ayoayo`: by default this repository's bin/ayoayo.js, run in the repository. */
export interface CommandLocation {
  readonly bin?: string;
  readonly cwd?: string;
}

/** Starts `ayoayo ...args` and waits until it prints its http:// address. */
export function startCommand(
  args: readonly string[],
  { bin = 'bin/ayoayo.js', cwd = root }: CommandLocation = {},
): Promise<RunningCommand> {
  const child: ChildProcessWithoutNullStreams = spawn(process.execPath, [bin, ...args], { cwd });
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
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`ayoayo ${args.join(' ')} printed no address in 30 s: ${stderr}`));
    }, 30_000);
    const onData = () => {
      const match = /http:\/\/127\.0\.0\.1:\d+/.exec(stdout);
      if (!match) return;
      clearTimeout(timer);
      child.stdout.off('data', onData);
      resolve({
        url: match[0],
        stdout: () => stdout,
        stop: async () => {
          child.kill('SIGINT');
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
