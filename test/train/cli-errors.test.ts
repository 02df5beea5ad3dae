import '../setup/builtin-algorithms.ts';
import { existsSync, mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { errorReport, isUserError } from '../../cli/error-report.ts';
import { CheckpointError, PolicyFileError } from '../../models/errors.ts';
import { readPolicyFile } from '../../models/read-policy-file.ts';
import { buildConfig } from '../../train/config/build.ts';
import { RunFolderError, TrainConfigError } from '../../train/errors.ts';
import { removeRun } from '../../train/run/paths.ts';
import { expectOneLineError } from '../ayoayo-command.ts';

/** A runs folder with runs `old` and `old-resumed` whose latest checkpoints are cut short, a policy file that is not JSON, and a config file with misspelt keys. */
function badFiles(): { runs: string; policy: string; typos: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ayoayo-cli-errors-'));
  const runs = join(dir, 'runs');
  // Two runs with the same cut checkpoint: the rows run at once, and each command holds its
  // run's lock while it reads the run.
  for (const run of ['old', 'old-resumed']) {
    mkdirSync(join(runs, run, 'checkpoints'), { recursive: true });
    writeFileSync(join(runs, run, 'checkpoints', 'latest.json'), '{"kind":"ayoayo-chec');
  }
  mkdirSync(join(runs, 'unsaved', 'checkpoints'), { recursive: true });
  writeFileSync(join(runs, 'a-file'), 'not a run');
  const policy = join(dir, 'policy.json');
  writeFileSync(policy, '{"format": "ayoayo-policy", ');
  const typos = join(dir, 'typos.json');
  writeFileSync(typos, '{"hiddden": [8], "expertIteration": {"simulatons": 4}}');
  return { runs, policy, typos };
}

describe('errors from train/ and models/ on the command line', () => {
  const { runs, policy, typos } = badFiles();
  /** `ayoayo train` of the smoke preset, run NAME in the test's runs folder, then `extra`. */
  const smoke = (name: string, ...extra: string[]) => [
    'train',
    '--preset',
    'smoke',
    '--runs-dir',
    runs,
    '--name',
    name,
    ...extra,
  ];
  const rows = [
    {
      case: 'training over a run that has checkpoints',
      args: smoke('old'),
      stderr: `ayoayo: run ${join(runs, 'old')} already has checkpoints: pass --resume`,
    },
    {
      case: 'resuming from a truncated checkpoint',
      args: smoke('old-resumed', '--resume'),
      stderr: `ayoayo: checkpoint ${join(runs, 'old-resumed', 'checkpoints', 'latest.json')} is corrupt: not valid JSON`,
    },
    {
      case: 'a list flag with an empty item',
      args: smoke('h', '--hidden', '16,,16'),
      stderr: "ayoayo: --hidden '16,,16' has an empty item: give a comma-separated list",
      absent: join(runs, 'h'),
    },
    {
      case: 'a config file that is a folder',
      args: ['train', '--config', runs, '--runs-dir', runs, '--name', 'c'],
      stderr: `ayoayo: config file ${runs} is not a file`,
    },
    {
      case: 'a runs folder that is a file',
      args: ['train', '--preset', 'smoke', '--runs-dir', join(runs, 'a-file'), '--name', 'x'],
      stderr: `ayoayo: --runs-dir ${join(runs, 'a-file')} is a file, not a folder`,
    },
    {
      case: 'a run name that is a file',
      args: smoke('a-file'),
      stderr: `ayoayo: run "a-file" (--name) ${join(runs, 'a-file')} is a file, not a folder`,
    },
    {
      case: 'resuming a run that does not exist',
      args: smoke('none', '--resume'),
      stderr: `ayoayo: there is no run ${join(runs, 'none')} to resume: check --name and --runs-dir, or train it without --resume`,
    },
    {
      case: 'resuming a run that stopped before its first checkpoint',
      args: smoke('unsaved', '--resume'),
      stderr: `ayoayo: run ${join(runs, 'unsaved')} has no checkpoint to resume from (${join(runs, 'unsaved', 'checkpoints', 'latest.json')} does not exist): it stopped before its first checkpoint; train it again without --resume`,
    },
    {
      case: 'a bad evaluation baseline, before the run folder is made',
      args: smoke('eo', '--eval-opponents', 'random,minimax:0'),
      stderr:
        "ayoayo: evalOpponents (--eval-opponents): invalid agent 'minimax:0': the depth must be an integer in 1..64",
      absent: join(runs, 'eo'),
    },
    {
      case: 'a baseline listed twice',
      args: smoke('eo2', '--eval-opponents', 'random,greedy,random'),
      stderr: "ayoayo: evalOpponents (--eval-opponents): agent 'random' is listed twice",
      absent: join(runs, 'eo2'),
    },
    {
      case: 'a minibatch too large to allocate',
      args: smoke('mb', '--minibatch-size', '100000000'),
      stderr: 'ayoayo: invalid config: minibatchSize: Too big: expected number to be <=65536',
      absent: join(runs, 'mb'),
    },
    {
      case: 'more evaluation games than a tournament can hold, before the run folder is made',
      args: smoke('eg', '--eval-games', '1e9'),
      stderr: 'ayoayo: invalid config: evalGames: Too big: expected number to be <=1000000',
      absent: join(runs, 'eg'),
    },
    {
      case: 'more final evaluation games than a tournament can hold, before the run folder is made',
      args: smoke('feg', '--final-eval-games', '1e9'),
      stderr: 'ayoayo: invalid config: finalEvalGames: Too big: expected number to be <=1000000',
      absent: join(runs, 'feg'),
    },
    {
      case: 'misspelt keys in a config file, at the top and in a block',
      args: ['train', '--config', typos, '--runs-dir', runs, '--name', 'typos'],
      stderr: `ayoayo: invalid config (${typos} and flags): hiddden: unknown setting (did you mean hidden?); expertIteration.simulatons: unknown setting (did you mean simulations?), and expertIteration applies to --algorithm expert-iteration only (the run's algorithm is ppo)`,
      absent: join(runs, 'typos'),
    },
    {
      case: 'a setting given under both its names, with different values',
      args: smoke(
        'ne',
        '--algorithm',
        'expert-iteration',
        '--num-envs',
        '4',
        '--games-at-once',
        '8',
      ),
      stderr:
        'ayoayo: --num-envs 4 and --games-at-once 8 are two names of one expert iteration setting, expertIteration.gamesAtOnce, given different values: give one of them',
      absent: join(runs, 'ne'),
    },
    {
      case: 'more games a pairing than a report can hold',
      args: ['eval', '--agents', 'random,greedy', '--games', '1e9'],
      stderr:
        'ayoayo: games must be at most 1000000 a pairing (every game is kept for the report), got 1000000000',
    },
    {
      case: 'a policy file that is not JSON in a tournament',
      args: ['eval', '--agents', `random,policy:${policy}`, '--games', '2', '--workers', '0'],
      stderr: `ayoayo: policy ${policy} is corrupt: not valid JSON`,
    },
    {
      case: 'a policy file that is not JSON for the HTTP service',
      args: ['serve', '--policy', policy],
      stderr: `ayoayo: policy ${policy} is corrupt: not valid JSON`,
    },
  ];
  it.concurrent.each(rows)(
    '$case: one line, exit 1',
    async (row) => {
      await expectOneLineError(row.args, row.stderr);
      if ('absent' in row && row.absent !== undefined) expect(existsSync(row.absent)).toBe(false);
    },
    60_000,
  );
});

describe('a user mistake or a bug', () => {
  it('tells typed errors of train/ and models/ from bugs', () => {
    const mistakes = [
      () => buildConfig([{ hidden: [0] }]),
      () => removeRun({ runsDir: 'runs', name: '..' }),
      () => readPolicyFile(join(tmpdir(), 'no-such-policy.json')),
    ];
    const thrown = mistakes.map((call) => {
      try {
        call();
      } catch (error) {
        return error;
      }
      return null;
    });
    expect(thrown[0]).toBeInstanceOf(TrainConfigError);
    expect(thrown[1]).toBeInstanceOf(RunFolderError);
    expect((thrown[1] as RunFolderError).reason).toBe('not-a-folder-name');
    expect(thrown[2]).toBeInstanceOf(PolicyFileError);
    expect((thrown[2] as PolicyFileError).reason).toBe('missing');
    for (const error of [...thrown, new CheckpointError('x')]) {
      expect(isUserError(error)).toBe(true);
      expect(errorReport(error).split('\n').filter(Boolean)).toHaveLength(1);
    }
  });

  it('prints a bug with its stack trace', () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'x')");
    expect(isUserError(bug)).toBe(false);
    expect(isUserError(new Error('rollout buffer full (8 samples)'))).toBe(false);
    const report = errorReport(bug);
    expect(report.startsWith(`ayoayo: ${bug.message}\n`)).toBe(true);
    expect(report).toContain('this is a bug in ayoayo');
    expect(report).toContain('at ');
  });
});
