import type * as vega from 'vega';

/**
 * A dashed horizontal line across the plot at `value` on the y scale, with
 * its label above the left end: the 50% line of a learning curve, a target
 * line. Two marks, to spread into a spec's `marks`.
 */
export function referenceLine(value: number, label: string, yScale = 'y'): vega.Mark[] {
  return [
    {
      type: 'rule',
      encode: {
        enter: {
          x: { value: 0 },
          x2: { signal: 'width' },
          y: { scale: yScale, value },
          stroke: { value: '#555' },
          strokeDash: { value: [6, 4] },
          strokeWidth: { value: 1.5 },
        },
      },
    },
    {
      type: 'text',
      encode: {
        enter: {
          x: { value: 4 },
          y: { scale: yScale, value, offset: -5 },
          text: { value: label },
          align: { value: 'left' },
          fontSize: { value: 11 },
          fill: { value: '#555' },
        },
      },
    },
  ];
}

/** Where a series' points are: the data, its x and y fields and the field its colour follows. */
export interface SeriesFields {
  readonly data: string;
  readonly x: string;
  readonly y: string;
  readonly color: string;
  /** A field whose value shifts each point along x, in pixels (series side by side); none by default. */
  readonly xOffset?: string;
  /** Point size (default 24). */
  readonly size?: number;
}

/** How a series' line is stroked: its width (default 2) and, for a dashed line, its dash pattern. */
export interface LineStyle {
  readonly width?: number;
  readonly dash?: readonly number[];
}

function channels(fields: SeriesFields) {
  const x =
    fields.xOffset === undefined
      ? { scale: 'x', field: fields.x }
      : { scale: 'x', field: fields.x, offset: { field: fields.xOffset } };
  return { x, y: { scale: 'y', field: fields.y }, color: { scale: 'color', field: fields.color } };
}

/** A series drawn as a line alone, coloured by the `color` scale (a fitted line, for example). */
export function seriesLine(fields: SeriesFields, style: LineStyle = {}): vega.Mark {
  const { x, y, color } = channels(fields);
  const dash = style.dash === undefined ? {} : { strokeDash: { value: [...style.dash] } };
  return {
    type: 'line',
    from: { data: fields.data },
    encode: { enter: { x, y, stroke: color, ...dash, strokeWidth: { value: style.width ?? 2 } } },
  };
}

/** A series drawn as a line through its points, coloured by the `color` scale: the line mark, then the points'. */
export function lineWithPoints(fields: SeriesFields): [line: vega.Mark, points: vega.Mark] {
  const { x, y, color } = channels(fields);
  return [
    seriesLine(fields),
    {
      type: 'symbol',
      from: { data: fields.data },
      encode: { enter: { x, y, fill: color, size: { value: fields.size ?? 24 } } },
    },
  ];
}
