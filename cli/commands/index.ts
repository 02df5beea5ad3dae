import type { CommandModule } from 'yargs';

/** A command as the top-level help lists it, and how to load the whole of it. */
export interface CommandEntry {
  /** The command as yargs spells it, positionals included: `show [position]`. */
  readonly command: string;
  /** Its one line in `ayoayo --help`; the same as the module's own `describe`. */
  readonly describe: string;
  /** Imports the command's module (its options, its handler and all they need). */
  readonly load: () => Promise<CommandModule>;
}

// One entry per command; each command lives in its own file,
// cli/commands/<name>.ts, and wraps its handler in runCommand (../fail.ts).
// The name and the line of help are written here as well as in the module so
// that `ayoayo --help` lists every command without importing any of them
// (some pull in tfjs, zod schemas, worker pools or the Redis queue);
// test/cli/command-table.test.ts checks that the two agree.
//
//   {
//     command: 'show [position]',
//     describe: 'Draw a position as the players see it (the start by default)',
//     load: async () => (await import('./show.ts')).showCommand,
//   },

export const commands: readonly CommandEntry[] = [
  {
    command: 'show [position]',
    describe: 'Draw a position as the players see it (the start by default)',
    load: async () => (await import('./show.ts')).showCommand,
  },
  {
    command: 'moves [position]',
    describe: 'List every action of a position: why it is illegal, or what it does',
    load: async () => (await import('./moves.ts')).movesCommand,
  },
  {
    command: 'solve [position]',
    describe: 'Prove the exact value (win, draw or loss) of a position and of each of its moves',
    load: async () => (await import('./solve.ts')).solveCommand,
  },
  {
    command: 'book <action>',
    describe:
      'Build or check the opening book: the exact value of every move of every position of the first plies',
    load: async () => (await import('./book.ts')).bookCommand,
  },
  {
    command: 'review <moves>',
    describe:
      'Review a game: the exact value before and after each move, the moves that lost value and the best ones',
    load: async () => (await import('./review.ts')).reviewCommand,
  },
  {
    command: 'play',
    describe: 'Play against an agent in the terminal',
    load: async () => (await import('./play.ts')).playCommand,
  },
  {
    command: 'eval',
    describe: 'Play a round robin (or a gauntlet) between agents and rate them',
    load: async () => (await import('./eval.ts')).evalCommand,
  },
  {
    command: 'accuracy',
    describe:
      'Measure agents against perfect play: how often their move loses value, by game phase',
    load: async () => (await import('./accuracy.ts')).accuracyCommand,
  },
  {
    command: 'engine',
    describe: 'Serve an agent as an external engine: JSON requests on stdin, answers on stdout',
    load: async () => (await import('./engine.ts')).engineCommand,
  },
  {
    command: 'train',
    describe:
      'Train a policy-value network from scratch by self-play (expert iteration, PPO or REINFORCE), evaluating it against baselines',
    load: async () => (await import('./train.ts')).trainCommand,
  },
  {
    command: 'export',
    describe: 'Export a trained policy for other clients (tfjs, ONNX or the JSON policy file)',
    load: async () => (await import('./export.ts')).exportCommand,
  },
  {
    command: 'serve',
    describe: 'Serve a trained policy over HTTP: POST /act with a position, GET /health',
    load: async () => (await import('./serve.ts')).serveCommand,
  },
  {
    command: 'web',
    describe: 'Serve the browser page: play against a policy or minimax',
    load: async () => (await import('./web.ts')).webCommand,
  },
  {
    command: 'worker',
    describe:
      'Run tournament chunks, training runs and accuracy chunks from a Redis queue (see eval/sweep/accuracy --queue)',
    load: async () => (await import('./worker.ts')).workerCommand,
  },
  {
    command: 'sweep',
    describe: 'Train a grid or a seeded random search of settings, here or on queue workers',
    load: async () => (await import('./sweep.ts')).sweepCommand,
  },
];

/** The word that invokes a command: `show` for `show [position]`. */
export function commandName(entry: Pick<CommandEntry, 'command'>): string {
  return entry.command.trim().split(/\s+/)[0] ?? '';
}
