import { join } from 'node:path';
import { EXPORT_FORMATS, type ExportFormat } from '../../models/export/manifest.ts';
import { defineCommand, runCommand } from '../fail.ts';

interface ExportArgs {
  from: string;
  format: ExportFormat;
  out: string;
}

export const exportCommand = defineCommand<ExportArgs>({
  command: 'export',
  describe: 'Export a trained policy for other clients (tfjs, ONNX or the JSON policy file)',
  builder: (y) =>
    y
      .option('from', {
        type: 'string',
        demandOption: true,
        describe: 'a policy file, a checkpoint (runs/NAME/checkpoints/*.json) or a run folder',
      })
      .option('format', {
        type: 'string',
        choices: EXPORT_FORMATS,
        demandOption: true,
        describe: 'tfjs: Layers model; onnx: ONNX (opset 13); json: ayoayo-policy file',
      })
      .option('out', {
        type: 'string',
        demandOption: true,
        describe: 'output folder (created if missing); a manifest.json is written beside the model',
      })
      .example('$0 export --from runs/quickstart --format onnx --out exported/onnx', '')
      .example('$0 export --from models/pretrained/policy.json --format tfjs --out web-model', ''),
  handler: runCommand(async (argv: ExportArgs) => {
    // Loaded here, not at the top, so that other commands start without onnx-proto and tfjs.
    const { exportPolicy } = await import('../../models/export/export-policy.ts');
    const result = await exportPolicy({ from: argv.from, format: argv.format, out: argv.out });
    const source = result.policy.source;
    process.stdout.write(
      `Exported ${result.policy.path}${source ? ` (run ${source.run}, iteration ${source.iteration})` : ''} as ${argv.format}:\n`,
    );
    for (const file of result.files) process.stdout.write(`  ${join(argv.out, file)}\n`);
  }),
});
