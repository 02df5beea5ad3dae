/** Left-aligned text columns separated by two spaces (the last column is not padded). */
export function textTable(rows: readonly (readonly string[])[]): string[] {
  const widths = rows[0]?.map((_, c) => Math.max(...rows.map((r) => (r[c] ?? '').length))) ?? [];
  return rows.map((r) =>
    r
      .map((cell, c) => (c === r.length - 1 ? cell : cell.padEnd(widths[c] ?? 0)))
      .join('  ')
      .trimEnd(),
  );
}
