import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  DEFAULT_CONFIG,
  PRESETS,
  type TrainConfig,
  trainConfigSchema,
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

const kebab = (field: string) => field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`);

/** A value as the table shows it: code, lists comma-separated, empty when not set. */
function cell(value: unknown): string {
  if (value === undefined) return '';
  return `\`${Array.isArray(value) ? value.join(',') : String(value)}\``;
}

describe("docs/training.md's settings table", () => {
  const rows = settingsTable();
  const fields = Object.keys(trainConfigSchema.shape) as (keyof TrainConfig)[];

  it('has one row per schema field, in the schema order', () => {
    expect(rows.map((r) => r[0])).toEqual(fields.map((f) => `\`${f}\` (\`--${kebab(f)}\`)`));
  });

  it.each(fields)('%s: default, quick and long presets, and meaning match the code', (field) => {
    const row = rows.find((r) => r[0]?.startsWith(`\`${field}\` `));
    const description = trainConfigSchema.shape[field].description;
    expect(row).toEqual([
      `\`${field}\` (\`--${kebab(field)}\`)`,
      cell(DEFAULT_CONFIG[field]),
      cell(PRESETS.quick?.[field]),
      cell(PRESETS.long?.[field]),
      description,
    ]);
  });
});
