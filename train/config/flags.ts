import type { Options } from 'yargs';
import type { z } from 'zod';
import { DEFAULT_CONFIG, type TrainConfig, trainConfigSchema } from './schema.ts';

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

const fields = Object.entries(trainConfigSchema.shape).map(
  ([name, schema]) => [name, describeField(schema as z.ZodType)] as const,
);

/** What a setting counts, shown after its default in the help. */
const UNITS: Partial<Record<keyof TrainConfig, string>> = {
  iterations: 'iterations',
  timeLimitMinutes: 'minutes',
  numEnvs: 'games at once',
  rolloutSteps: 'steps',
  hidden: 'units per layer',
  openingPlies: 'plies',
  openingPliesMax: 'plies',
  searchSimulations: 'simulations',
  replayIterations: 'iterations',
  selfPlayShards: 'shards',
  maxPlies: 'plies',
  learningRate: 'per step',
  epochs: 'passes',
  minibatchSize: 'samples',
  poolShare: 'of games',
  poolSize: 'snapshots',
  snapshotEvery: 'iterations',
  baselineShare: 'of games',
  checkpointEvery: 'iterations',
  keepCheckpoints: 'checkpoints',
  evalEvery: 'iterations',
  evalGames: 'games',
  evalOpeningPlies: 'plies',
  extraEvalOpeningPlies: 'plies',
  finalEvalGames: 'games',
  workers: 'threads',
};

/** `numEnvs` -> `num-envs`, the spelling of every other flag of the CLI. */
export function kebabCase(name: string): string {
  return name.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);
}

function describeFlag(info: FieldInfo): string {
  const list = info.kind === 'numbers' || info.kind === 'strings' ? ' (comma-separated)' : '';
  if (!info.nullable) return `${info.description}${list}`;
  // On the command line null is spelled 'none'.
  return info.description.includes('(null:')
    ? `${info.description.replace('(null:', "('none':")}${list}`
    : `${info.description}${list} ('none' for no limit)`;
}

function defaultText(name: keyof TrainConfig): string {
  const value = DEFAULT_CONFIG[name];
  const unit = UNITS[name];
  const empty = value === null || (Array.isArray(value) && value.length === 0);
  const shown = empty ? 'none' : Array.isArray(value) ? value.join(',') : String(value);
  return unit !== undefined && !empty ? `${shown} ${unit}` : shown;
}

/**
 * yargs options for every config field, named in kebab-case with the schema's
 * descriptions, defaults and units as help. No yargs default is set, so that
 * a flag overrides the preset and --config only when it is given; yargs also
 * accepts the camelCase spelling and fills in the camelCase key.
 */
export function configFlags(): Record<string, Options> {
  const out: Record<string, Options> = {};
  for (const [name, info] of fields) {
    out[kebabCase(name)] = {
      describe: describeFlag(info),
      defaultDescription: defaultText(name as keyof TrainConfig),
      type:
        info.kind === 'number' && !info.nullable
          ? 'number'
          : info.kind === 'boolean'
            ? 'boolean'
            : 'string',
      group: 'Training settings (override the preset and --config):',
      ...(info.choices ? { choices: [...info.choices] } : {}),
    };
  }
  return out;
}

/** The config fields given on the command line, converted to their schema types. */
export function configFromFlags(argv: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [name, info] of fields) {
    const value = argv[name];
    if (value === undefined) continue;
    if (info.kind === 'numbers' || info.kind === 'strings') {
      const parts = String(value)
        .split(',')
        .map((p) => p.trim())
        .filter((p) => p.length > 0);
      out[name] = info.kind === 'numbers' ? parts.map(Number) : parts;
    } else if (info.kind === 'number' && info.nullable) {
      out[name] = value === 'none' || value === 'null' ? null : Number(value);
    } else {
      out[name] = value;
    }
  }
  return out;
}
