import type { ArgumentsCamelCase, CommandModule } from 'yargs';
import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
import { ayoayoVersion } from '../queue/version.ts';
import { type CommandEntry, commandName, commands } from './commands/index.ts';
import { exitWithError, UsageError } from './fail.ts';
import { applyInferenceOption } from './inference-option.ts';

// A reader that goes away (`ayoayo moves ... | head`) has all it wanted: stop
// quietly, as Unix tools do, rather than dying on an unhandled EPIPE.
process.stdout.on('error', (err: NodeJS.ErrnoException) => {
  if (err.code === 'EPIPE') process.exit(0);
  throw err;
});

const args = hideBin(process.argv);
// The top level takes no option with a value, so the first word that is not an
// option names the command (`ayoayo --help show` asks for show's help).
const firstWord = args.find((arg, i) => !arg.startsWith('-') && !args.slice(0, i).includes('--'));
const chosen = commands.find((entry) => commandName(entry) === firstWord);
const wantsVersion = args.includes('--version');

/**
 * The chosen command in full. Its handler first makes its `--inference`
 * (where it has one) the process's choice, then registers the agent kinds
 * that load a trained network (`policy:PATH`, the network searches) with
 * agents/, for every command that may meet an agent spec; a --help does not
 * load them, except where it lists the agent spec forms (eval, play, engine).
 */
async function loadCommand(entry: CommandEntry): Promise<CommandModule> {
  const command = await entry.load();
  const { handler } = command;
  return {
    ...command,
    handler: async (argv: ArgumentsCamelCase) => {
      applyInferenceOption(argv);
      (await import('../agents/network/kinds.ts')).registerNetworkKinds();
      (await import('./book-threads.ts')).firstUseBooksOnThreads();
      await handler(argv);
    },
  };
}

// Every other command is listed by its name and line of help only: the top-level
// help needs no more, and start-up stays free of what the commands import.
const registered: CommandModule[] = await Promise.all(
  commands.map((entry) =>
    entry === chosen
      ? loadCommand(entry)
      : { command: entry.command, describe: entry.describe, handler: () => {} },
  ),
);

await yargs(args)
  .scriptName('ayoayo')
  .usage('$0 <command> [options]')
  .command(registered)
  .demandCommand(1, 'no command given')
  .strict()
  .strictCommands()
  // yargs rejects unknown commands only once at least one command exists; cover the rest.
  .check((argv) => {
    const [first] = argv._;
    if (first !== undefined && !commands.some((entry) => commandName(entry) === String(first))) {
      throw new UsageError(`Unknown command: ${first}`);
    }
    return true;
  }, false)
  .help()
  .alias('h', 'help')
  // The code fingerprint too: the queue's workers refuse jobs of another one.
  // Hashed only when asked for: yargs prints the string for --version alone.
  .version('version', 'Show version number', wantsVersion ? ayoayoVersion() : '')
  .wrap(Math.min(100, process.stdout.columns ?? 100))
  // A usage error found by yargs comes as `msg` alone; anything thrown as `err`.
  .fail((msg, err) => exitWithError(err ?? new UsageError(msg)))
  .parseAsync();
