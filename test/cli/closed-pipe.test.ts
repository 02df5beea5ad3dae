import { spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../..', import.meta.url));

describe('a reader that closes its end of the pipe', () => {
  it('ends ayoayo quietly with exit code 0, as `ayoayo ... | head` expects', async () => {
    const child = spawn(
      process.execPath,
      ['bin/ayoayo.js', 'moves', '4,4,4,4,4,4/4,4,4,4,4,4/0-0/0', '--json'],
      { cwd: root, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    // Close the read end before the command has started, so its first write meets a closed pipe.
    child.stdout.destroy();
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => {
      stderr += chunk.toString();
    });
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect(stderr).toBe('');
    expect(code).toBe(0);
  });
});
