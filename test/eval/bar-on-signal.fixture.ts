// Draws a progress bar on a stderr posing as a terminal, says `ready` on stdout
// and waits for a signal. argv: `train` or `games`; then `lock DIR` to hold a
// folder lock (whose handler re-raises the signal), or `handled` for a command
// that handles SIGINT itself and ends on its own.

import { gamesProgressBar } from '../../display/progress.ts';
import { lockFolder } from '../../files/folder-lock.ts';
import { TrainingProgress } from '../../train/report/progress.ts';

const [kind, mode, dir] = process.argv.slice(2);
Object.assign(process.stderr, { isTTY: true, columns: 100 });
if (mode === 'lock' && dir !== undefined) lockFolder(dir, 'run');
const wait = setInterval(() => {}, 60_000);
// Never left running: a bar that keeps the program alive after the signal fails the test instead.
setTimeout(() => process.exit(3), 20_000).unref();
if (mode === 'handled') {
  process.on('SIGINT', () => {
    process.stdout.write('handled\n');
    clearInterval(wait);
  });
}
if (kind === 'train') {
  new TrainingProgress(true, 10, 0).update(1, {
    pliesPerSec: 1000,
    policyLoss: 0.5,
    valueLoss: 0.25,
    scores: null,
  });
} else {
  gamesProgressBar({ label: 'games' }).update(1, 10);
}
process.stdout.write('ready\n');
