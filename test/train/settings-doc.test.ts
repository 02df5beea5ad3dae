import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { flagOfField, kebabCase } from '../../train/config/flags.ts';
import {
  DEFAULT_ALGORITHM,
  DEFAULT_BLOCKS,
  DEFAULT_SHARED,
  PRESETS,
} from '../../train/config/presets.ts';
import {
  algorithmSchema,
  expertIterationSettingsSchema,
  ppoSettingsSchema,
  sharedSettingsSchema,
} from '../../train/config/schema.ts';

const doc = readFileSync(new URL('../../docs/training.md', import.meta.url), 'utf8');

/** The rows of the "## Settings" table of docs/training.md, cells trimmed. */
function settingsTable(): string[][] {
  const section = doc.split(/^## Settings$/m)[1]?.split(/^#{1,2} /m)[0] ?? '';
  return section
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) =>
      line
        .slice(1, -1)
        .split(' | ')
        .map((cell) => cell.trim()),
    );
}

/** A value as the table shows it: code, lists comma-separated, empty when not set. */
function cell(value: unknown): string {
  if (value === undefined) return '';
  return `\`${Array.isArray(value) ? value.join(',') : String(value)}\``;
}

interface Setting {
  readonly path: string;
  readonly flag: string;
  readonly defaultValue: unknown;
  readonly get: (preset: Record<string, unknown> | undefined) => unknown;
  readonly description: string | undefined;
}

/** Every setting in the schema's order: the shared ones (the algorithm after the backend), then PPO's, then expert iteration's. */
function settings(): Setting[] {
  const shared = Object.entries(sharedSettingsSchema.shape).flatMap(([key, schema]): Setting[] => {
    const row: Setting = {
      path: key,
      flag: kebabCase(key),
      defaultValue: DEFAULT_SHARED[key as keyof typeof DEFAULT_SHARED],
      get: (preset) => preset?.[key],
      description: schema.description,
    };
    if (key !== 'backend') return [row];
    const algorithm: Setting = {
      path: 'algorithm',
      flag: 'algorithm',
      defaultValue: DEFAULT_ALGORITHM,
      get: (preset) => preset?.algorithm,
      description: algorithmSchema.description,
    };
    return [row, algorithm];
  });
  const block = (
    name: 'ppo' | 'expertIteration',
    shape: Record<string, { description?: string }>,
  ) =>
    Object.entries(shape).map(
      ([field, schema]): Setting => ({
        path: `${name}.${field}`,
        flag: flagOfField(name, field),
        defaultValue: (DEFAULT_BLOCKS[name] as Record<string, unknown>)[field],
        get: (preset) => (preset?.[name] as Record<string, unknown> | undefined)?.[field],
        description: schema.description,
      }),
    );
  return [
    ...shared,
    ...block('ppo', ppoSettingsSchema.shape),
    ...block('expertIteration', expertIterationSettingsSchema.shape),
  ];
}

describe("docs/training.md's settings table", () => {
  const rows = settingsTable();
  const all = settings();

  it('has one row per setting, in the schema order, each with its flag', () => {
    expect(rows.map((r) => r[0])).toEqual(all.map((s) => `\`${s.path}\` (\`--${s.flag}\`)`));
  });

  it.each(all.map((s) => [s.path, s] as const))(
    '%s: default, quick and long presets, and meaning match the code',
    (_, setting) => {
      const row = rows.find((r) => r[0]?.startsWith(`\`${setting.path}\` `));
      const preset = (name: string) => PRESETS[name] as Record<string, unknown> | undefined;
      expect(row).toEqual([
        `\`${setting.path}\` (\`--${setting.flag}\`)`,
        cell(setting.defaultValue),
        cell(setting.get(preset('quick'))),
        cell(setting.get(preset('long'))),
        setting.description,
      ]);
    },
  );
});
