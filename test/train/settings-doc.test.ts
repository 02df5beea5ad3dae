import '../setup/builtin-algorithms.ts';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { formatRules, rulesSchema } from '../../env/rules.ts';
import { algorithms } from '../../train/algorithm/registry.ts';
import { flagOfField, kebabCase, settingFlags } from '../../train/config/flags.ts';
import { PRESETS } from '../../train/config/presets.ts';
import { DEFAULT_SHARED, sharedSettingsSchema } from '../../train/settings/schema.ts';

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

/** A value as the table shows it: code, lists comma-separated, the rules as --rules takes them, empty when not set. */
function cell(value: unknown): string {
  if (value === undefined) return '';
  const rules = rulesSchema.safeParse(value);
  if (rules.success) return `\`${formatRules(rules.data)}\``;
  return `\`${Array.isArray(value) ? value.join(',') : String(value)}\``;
}

interface Setting {
  readonly path: string;
  readonly flag: string;
  readonly defaultValue: unknown;
  readonly get: (preset: Record<string, unknown> | undefined) => unknown;
  readonly description: string | undefined;
}

const defaultOf = (schema: { safeParse(value: unknown): { data?: unknown } }): unknown =>
  schema.safeParse(undefined).data;

/** Every setting in the schema's order: the shared ones (the algorithm after the backend), then each algorithm's. */
function settings(): Setting[] {
  const defaults: Readonly<Record<string, unknown>> = DEFAULT_SHARED;
  const algorithm = settingFlags().find((f) => f.flag === 'algorithm')?.targets[0]?.schema;
  const shared = Object.entries(sharedSettingsSchema.shape).flatMap(([key, schema]): Setting[] => {
    const row: Setting = {
      path: key,
      flag: kebabCase(key),
      defaultValue: defaults[key],
      get: (preset) => preset?.[key],
      description: schema.description,
    };
    if (key !== 'backend' || algorithm === undefined) return [row];
    return [
      row,
      {
        path: 'algorithm',
        flag: 'algorithm',
        defaultValue: defaultOf(algorithm),
        get: (preset) => preset?.algorithm,
        description: algorithm.description,
      },
    ];
  });
  const blocks = algorithms().flatMap(({ block, settings: schema }) =>
    Object.entries(schema.shape).map(
      ([field, fieldSchema]): Setting => ({
        path: `${block}.${field}`,
        flag: flagOfField(block, field),
        defaultValue: defaultOf(fieldSchema),
        get: (preset) => (preset?.[block] as Record<string, unknown> | undefined)?.[field],
        description: fieldSchema.description,
      }),
    ),
  );
  return [...shared, ...blocks];
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
      const preset = (name: string): Record<string, unknown> | undefined => PRESETS[name]?.settings;
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
