import type { Argv } from 'yargs';
import { choosePolicyPath, PRETRAINED_POLICY } from '../../models/export/default-policy.ts';
import { loadPolicy } from '../../models/load-policy.ts';
import { encodePolicyFile } from '../../models/policy-checksum.ts';
import { createWebServer, prebuiltPage } from '../../web/web-server.ts';
import { connectionLimits, type ListenArgs, listenOptions } from '../connection-options.ts';
import { defineCommand, runCommand } from '../fail.ts';
import { listenOrFail, serveUntilStopped } from '../server-lifecycle.ts';

interface WebArgs extends ListenArgs {
  policy?: string;
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
    listenOptions(
      y.option('policy', {
        type: 'string',
        describe: `a policy file, checkpoint or run folder for the page (default: ${PRETRAINED_POLICY} when present; else minimax only)`,
      }),
      8000,
    ).example(
      '$0 web --policy runs/quickstart',
      'then open the printed address',
    ) as unknown as Argv<WebArgs>,
  handler: runCommand(async (argv: WebArgs) => {
    const limits = connectionLimits(argv);
    const { policyFileOf } = await import('../../models/export/export-policy.ts');
    const path = choosePolicyPath(argv.policy);
    // Whatever was given (checkpoint, run folder, policy file), the page gets an ayoayo-policy file.
    const policy = path === null ? null : loadPolicy(path);
    const policyJson = policy === null ? null : encodePolicyFile(policyFileOf(policy));
    const server = createWebServer({ root: await pageRoot(), policyJson, ...limits });
    const url = await listenOrFail(server, argv.port, argv.host);
    process.stdout.write(
      `${policy ? `Policy: ${policy.path}` : 'No policy given and none pretrained yet: the page offers minimax only'}\n` +
        `Open ${url}/ to play (Ctrl-C stops)\n`,
    );
    await serveUntilStopped(server);
  }),
});
