import type { CommandModule } from 'yargs';
import { engineCommand } from './engine.ts';
import { evalCommand } from './eval.ts';
import { exportCommand } from './export.ts';
import { movesCommand } from './moves.ts';
import { playCommand } from './play.ts';
import { serveCommand } from './serve.ts';
import { showCommand } from './show.ts';
import { sweepCommand } from './sweep.ts';
import { trainCommand } from './train.ts';
import { webCommand } from './web.ts';
import { workerCommand } from './worker.ts';

// One import and one array entry per command; each command lives in its own
// file, cli/commands/<name>.ts, and wraps its handler in runCommand (../fail.ts).
//
//   import { showCommand } from './show.ts';
//   export const commands: CommandModule[] = [showCommand];

export const commands: CommandModule[] = [
  showCommand,
  movesCommand,
  playCommand,
  evalCommand,
  engineCommand,
  trainCommand,
  exportCommand,
  serveCommand,
  webCommand,
  workerCommand,
  sweepCommand,
];
