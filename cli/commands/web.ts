import { choosePolicyPath, PRETRAINED_POLICY } from '../../models/export/default-policy.ts';
import { loadPolicy } from '../../models/load-policy.ts';
import { encodePolicyFile } from '../../models/policy-checksum.ts';
import { createWebServer, prebuiltPage } from '../../web/web-server.ts';
import { CliError, defineCommand, runCommand } from '../fail.ts';
import { listenOrFail, serveUntilStopped } from '../server-lifecycle.ts';

interface WebArgs {
  policy?: string;
  port: number;
  host: string;
}

/** The installed package's prebuilt page; in a clone, the page built now from web/. */
async function pageRoot(): Promise<string> {
  const prebuilt = prebuiltPage();
  if (prebuilt !== null) return prebuilt;
  // Loaded only here: esbuild is a development dependency, absent from an installed package.
  const { buildWeb } = await import('../../web/build.ts');
  return (await buildWeb()).outDir;
}

export const webCommand = defineCommand<WebArgs>({
  command: 'web',
  describe: 'Serve the browser page: play against a policy or minimax',
  builder: (y) =>
    y
      .option('policy', {
        type: 'string',
        describe: `a policy file, checkpoint or run folder for the page (default: ${PRETRAINED_POLICY} when present; else minimax only)`,
      })
      .option('port', { type: 'number', default: 8000, describe: 'TCP port (0: any free port)' })
      .option('host', {
        type: 'string',
        default: '127.0.0.1',
        describe: 'address to listen on (127.0.0.1: this machine only)',
      })
      .example('$0 web --policy runs/quickstart', 'then open the printed address'),
  handler: runCommand(async (argv: WebArgs) => {
    if (!Number.isInteger(argv.port) || argv.port < 0 || argv.port > 65535) {
      throw new CliError(`--port must be an integer from 0 to 65535, got ${argv.port}`);
    }
    const { policyFileOf } = await import('../../models/export/export-policy.ts');
    const path = choosePolicyPath(argv.policy);
    // Whatever was given (checkpoint, run folder, policy file), the page gets an ayoayo-policy file.
    const policy = path === null ? null : loadPolicy(path);
    const policyJson = policy === null ? null : encodePolicyFile(policyFileOf(policy));
    const server = createWebServer({ root: await pageRoot(), policyJson });
    const url = await listenOrFail(server, argv.port, argv.host);
    process.stdout.write(
      `${policy ? `Policy: ${policy.path}` : 'No policy given and none pretrained yet: the page offers minimax only'}\n` +
        `Open ${url}/ to play (Ctrl-C stops)\n`,
    );
    await serveUntilStopped(server);
  }),
});
