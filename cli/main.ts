import yargs from 'yargs';
import { hideBin } from 'yargs/helpers';
// Registers `policy:PATH` agent specs with agents/ for every command.
import '../models/policy-kind.ts';
import { commands } from './commands/index.ts';
import { exitWithError, UsageError } from './fail.ts';

/** First words of every registered command string and its aliases. */
const commandNames = new Set(
  commands.flatMap((c) =>
    [c.command ?? [], c.aliases ?? []].flat().map((name) => name.trim().split(/\s+/)[0] ?? ''),
  ),
);

await yargs(hideBin(process.argv))
  .scriptName('ayoayo')
  .usage('$0 <command> [options]')
  .command(commands)
  .demandCommand(1, 'no command given')
  .strict()
  .strictCommands()
  // yargs rejects unknown commands only once at least one command exists; cover the rest.
  .check((argv) => {
    const [first] = argv._;
    if (first !== undefined && !commandNames.has(String(first))) {
      throw new UsageError(`Unknown command: ${first}`);
    }
    return true;
  }, false)
  .help()
  .alias('h', 'help')
  .version()
  .wrap(Math.min(100, process.stdout.columns ?? 100))
  // A usage error found by yargs comes as `msg` alone; anything thrown as `err`.
  .fail((msg, err) => exitWithError(err ?? new UsageError(msg)))
  .parseAsync();
