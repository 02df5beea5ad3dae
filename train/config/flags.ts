import type { Options } from 'yargs';
import type { z } from 'zod';
import { TrainConfigError } from '../errors.ts';
import { DEFAULT_ALGORITHM, DEFAULT_BLOCKS, DEFAULT_SHARED } from './presets.ts';
import {
  algorithmSchema,
  type BlockName,
  type ExpertIterationSettings,
  expertIterationSettingsSchema,
  type PpoSettings,
  ppoSettingsSchema,
  type SharedSettings,
  sharedSettingsSchema,
} from './schema.ts';

/**
 * The flags of `ayoayo train`, flat and in kebab-case, and where each goes in
 * the nested config: a shared setting, or a field of the `ppo` block, of the
 * `expertIteration` block, or of both (`--epochs` is each algorithm's own).
 * The same names in camelCase (`numEnvs`) are the keys of a flat config
 * file's or a sweep's settings.
 */
export interface SettingFlag {
  /** Without the dashes: `num-envs`. */
  readonly flag: string;
  readonly shared?: keyof SharedSettings | 'algorithm';
  readonly ppo?: keyof PpoSettings;
  readonly expertIteration?: keyof ExpertIterationSettings;
}

/** `numEnvs` -> `num-envs`, the spelling of every other flag of the CLI. */
export function kebabCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

/** `num-envs` -> `numEnvs`, the key yargs and flat config files use. */
export function camelCase(flag: string): string {
  return flag.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase());
}

/** Each PPO setting's flag. */
const PPO_FLAGS: Record<keyof PpoSettings, string> = {
  numEnvs: 'num-envs',
  rolloutSteps: 'rollout-steps',
  epochs: 'epochs',
  clip: 'clip',
  gamma: 'gamma',
  gaeLambda: 'gae-lambda',
  entropyCoef: 'entropy-coef',
  openingPlies: 'opening-plies',
  poolShare: 'pool-share',
  poolSize: 'pool-size',
  snapshotEvery: 'snapshot-every',
  baselineShare: 'baseline-share',
  baselineOpponents: 'baseline-opponents',
};

/** Each expert-iteration setting's flag; `--num-envs`, its name before, still sets `gamesAtOnce`. */
const EXPERT_ITERATION_FLAGS: Record<keyof ExpertIterationSettings, string> = {
  gamesAtOnce: 'games-at-once',
  movesPerIteration: 'moves-per-iteration',
  selfPlayShards: 'self-play-shards',
  simulations: 'search-simulations',
  fullSearchShare: 'full-search-share',
  cheapSimulations: 'cheap-simulations',
  policyTarget: 'policy-target',
  completedQScale: 'completed-q-scale',
  searchValueWeight: 'search-value-weight',
  solverNodes: 'solver-nodes',
  solverPlaysProven: 'solver-plays-proven',
  alphaBetaDepth: 'alpha-beta-depth',
  alphaBetaShare: 'alpha-beta-share',
  solverEndgameSeeds: 'solver-endgame-seeds',
  replayIterations: 'replay-iterations',
  epochs: 'epochs',
  openingPlies: 'opening-plies',
  openingPliesMax: 'opening-plies-max',
  balancedOpenings: 'balanced-openings',
};
const EXPERT_ITERATION_ALIASES = { 'num-envs': 'gamesAtOnce' } as const;

function settingFlags(): SettingFlag[] {
  const byFlag = new Map<string, SettingFlag>();
  const add = (flag: string, target: Omit<SettingFlag, 'flag'>) =>
    byFlag.set(flag, { ...byFlag.get(flag), flag, ...target });
  for (const key of Object.keys(sharedSettingsSchema.shape) as (keyof SharedSettings)[]) {
    add(kebabCase(key), { shared: key });
    if (key === 'backend') add('algorithm', { shared: 'algorithm' });
  }
  for (const [key, flag] of Object.entries(PPO_FLAGS)) add(flag, { ppo: key as keyof PpoSettings });
  for (const [key, flag] of [
    ...Object.entries(EXPERT_ITERATION_FLAGS),
    ...Object.entries(EXPERT_ITERATION_ALIASES).map(([flag, key]) => [key, flag]),
  ]) {
    add(flag as string, { expertIteration: key as keyof ExpertIterationSettings });
  }
  return [...byFlag.values()];
}

/** Every flag, shared settings first (in the schema's order), then PPO's, then expert iteration's. */
export const SETTING_FLAGS: readonly SettingFlag[] = settingFlags();

const byKey = new Map(SETTING_FLAGS.map((f) => [camelCase(f.flag), f]));

/** The flag whose camelCase spelling is `key` (`numEnvs`), if any. */
export function flagOfKey(key: string): SettingFlag | undefined {
  return byKey.get(key);
}

/** The flag that sets a block's field (`expertIteration`, `simulations` -> `search-simulations`). */
export function flagOfField(block: BlockName, field: string): string {
  const flags = block === 'ppo' ? PPO_FLAGS : EXPERT_ITERATION_FLAGS;
  return (flags as Record<string, string>)[field] ?? kebabCase(field);
}

type FieldKind = 'number' | 'boolean' | 'string' | 'numbers' | 'strings';

interface FieldInfo {
  readonly kind: FieldKind;
  readonly choices?: readonly string[];
  readonly nullable: boolean;
  readonly description: string;
}

function describeField(schema: z.ZodType): FieldInfo {
  let inner = schema as z.ZodType & {
    def: { type: string; innerType?: z.ZodType; element?: z.ZodType };
  };
  let nullable = false;
  const description = schema.description ?? '';
  while (
    inner.def.type === 'nullable' ||
    inner.def.type === 'optional' ||
    inner.def.type === 'default'
  ) {
    nullable = nullable || inner.def.type === 'nullable';
    inner = inner.def.innerType as typeof inner;
  }
  const type = inner.def.type;
  if (type === 'number') return { kind: 'number', nullable, description };
  if (type === 'boolean') return { kind: 'boolean', nullable, description };
  if (type === 'enum') {
    const choices = (inner as unknown as { options: string[] }).options;
    return { kind: 'string', choices, nullable, description };
  }
  if (type === 'array') {
    const element = inner.def.element as z.ZodType & { def: { type: string } };
    return { kind: element.def.type === 'number' ? 'numbers' : 'strings', nullable, description };
  }
  return { kind: 'string', nullable, description };
}

/** One field a flag sets: its schema, its default and which algorithms read it. */
interface Target {
  readonly schema: z.ZodType;
  readonly defaultValue: unknown;
  readonly algorithms: string | null;
  readonly field: string;
}

function targetsOf(f: SettingFlag): Target[] {
  const out: Target[] = [];
  if (f.shared === 'algorithm') {
    out.push({
      schema: algorithmSchema,
      defaultValue: DEFAULT_ALGORITHM,
      algorithms: null,
      field: 'algorithm',
    });
  } else if (f.shared !== undefined) {
    const schema = sharedSettingsSchema.shape[f.shared] as z.ZodType;
    out.push({ schema, defaultValue: DEFAULT_SHARED[f.shared], algorithms: null, field: f.shared });
  }
  if (f.ppo !== undefined) {
    const schema = ppoSettingsSchema.shape[f.ppo] as z.ZodType;
    const defaultValue = DEFAULT_BLOCKS.ppo[f.ppo];
    out.push({ schema, defaultValue, algorithms: 'ppo, reinforce', field: f.ppo });
  }
  if (f.expertIteration !== undefined) {
    const schema = expertIterationSettingsSchema.shape[f.expertIteration] as z.ZodType;
    const defaultValue = DEFAULT_BLOCKS.expertIteration[f.expertIteration];
    out.push({ schema, defaultValue, algorithms: 'expert-iteration', field: f.expertIteration });
  }
  return out;
}

/** What a setting counts, shown after its default in the help. */
const UNITS: Record<string, string> = {
  iterations: 'iterations',
  'time-limit-minutes': 'minutes',
  'num-envs': 'games at once',
  'games-at-once': 'games',
  'moves-per-iteration': 'moves',
  'rollout-steps': 'steps',
  hidden: 'units per layer',
  'opening-plies': 'plies',
  'opening-plies-max': 'plies',
  'search-simulations': 'simulations',
  'replay-iterations': 'iterations',
  'self-play-shards': 'shards',
  'max-plies': 'plies',
  'learning-rate': 'per step',
  epochs: 'passes',
  'minibatch-size': 'samples',
  'pool-share': 'of games',
  'pool-size': 'snapshots',
  'snapshot-every': 'iterations',
  'baseline-share': 'of games',
  'checkpoint-every': 'iterations',
  'keep-checkpoints': 'checkpoints',
  'eval-every': 'iterations',
  'eval-games': 'games',
  'eval-opening-plies': 'plies',
  'extra-eval-opening-plies': 'plies',
  'eval-accuracy-positions': 'positions',
  'final-eval-games': 'games',
  workers: 'threads',
};

function describeText(info: FieldInfo): string {
  const list = info.kind === 'numbers' || info.kind === 'strings' ? ' (comma-separated)' : '';
  if (!info.nullable) return `${info.description}${list}`;
  // On the command line null is spelled 'none'.
  return info.description.includes('(null:')
    ? `${info.description.replace('(null:', "('none':")}${list}`
    : `${info.description}${list} ('none' for no limit)`;
}

function valueText(value: unknown, unit: string | undefined): string {
  const empty = value === null || (Array.isArray(value) && value.length === 0);
  const shown = empty ? 'none' : Array.isArray(value) ? value.join(',') : String(value);
  return unit !== undefined && !empty ? `${shown} ${unit}` : shown;
}

const GROUPS = {
  shared: 'Training settings (override the preset and --config):',
  ppo: 'PPO and REINFORCE settings (--algorithm ppo or reinforce):',
  expertIteration: 'Expert iteration settings (--algorithm expert-iteration):',
} as const;

/** A flag's help: the field's description, or each algorithm's when it sets a field of both. */
function flagHelp(f: SettingFlag, targets: readonly Target[]): Options {
  const infos = targets.map((t) => describeField(t.schema));
  const info = infos[0] as FieldInfo;
  const unit = UNITS[f.flag];
  const alias = (t: Target) =>
    f.flag !== flagOfField('expertIteration', t.field) && t.algorithms === 'expert-iteration';
  const describe =
    targets.length === 1
      ? describeText(info)
      : targets
          .map((t, i) =>
            alias(t)
              ? `${t.algorithms}: the same as --${flagOfField('expertIteration', t.field)}`
              : `${t.algorithms}: ${describeText(infos[i] as FieldInfo)}`,
          )
          .join('; ');
  const defaults = [...new Set(targets.map((t) => valueText(t.defaultValue, unit)))];
  const group =
    targets.length > 1 && !targets.some(alias)
      ? GROUPS.shared
      : f.shared !== undefined
        ? GROUPS.shared
        : f.ppo !== undefined
          ? GROUPS.ppo
          : GROUPS.expertIteration;
  return {
    describe,
    defaultDescription:
      defaults.length === 1
        ? (defaults[0] as string)
        : targets.map((t) => `${t.algorithms} ${valueText(t.defaultValue, unit)}`).join('; '),
    type:
      info.kind === 'number' && !info.nullable
        ? 'number'
        : info.kind === 'boolean'
          ? 'boolean'
          : 'string',
    group,
    ...(info.choices ? { choices: [...info.choices] } : {}),
  };
}

/**
 * yargs options for every flag, with the schema's descriptions, defaults and
 * units as help, grouped by the algorithm they apply to. No yargs default is
 * set, so that a flag overrides the preset and --config only when it is
 * given; yargs also accepts the camelCase spelling and fills in the
 * camelCase key.
 */
export function configFlags(): Record<string, Options> {
  const out: Record<string, Options> = {};
  for (const f of SETTING_FLAGS) out[f.flag] = flagHelp(f, targetsOf(f));
  return out;
}

/**
 * The settings given on the command line, converted to their schema types,
 * keyed by their flags in camelCase (a flat layer: buildConfig puts each into
 * the block of the run's algorithm).
 */
export function configFromFlags(argv: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const f of SETTING_FLAGS) {
    const key = camelCase(f.flag);
    const value = argv[key];
    if (value === undefined) continue;
    const info = describeField((targetsOf(f)[0] as Target).schema);
    if (info.kind === 'numbers' || info.kind === 'strings') {
      const text = String(value).trim();
      // An empty list is spelled 'none', as the help shows it.
      const parts = text === 'none' ? [] : text.split(',').map((p) => p.trim());
      if (parts.some((p) => p.length === 0)) {
        throw new TrainConfigError(
          `--${f.flag} '${text}' has an empty item: give a comma-separated list${text === '' ? ", or 'none' for an empty one" : ''}`,
        );
      }
      out[key] = info.kind === 'numbers' ? parts.map(Number) : parts;
    } else if (info.kind === 'number' && info.nullable) {
      out[key] = value === 'none' || value === 'null' ? null : Number(value);
    } else {
      out[key] = value;
    }
  }
  return out;
}
