import { describe, expect, it } from 'vitest';
import { lineWithPoints, seriesLine } from '../../display/chart-marks.ts';

const fields = { data: 'fit', x: 'positions', y: 'errors', color: 'run' };

describe('seriesLine', () => {
  it('strokes a solid line 2 pixels wide by default', () => {
    const mark = seriesLine(fields);
    expect(mark.type).toBe('line');
    expect(mark.from).toEqual({ data: 'fit' });
    expect(mark.encode?.enter).toEqual({
      x: { scale: 'x', field: 'positions' },
      y: { scale: 'y', field: 'errors' },
      stroke: { scale: 'color', field: 'run' },
      strokeWidth: { value: 2 },
    });
  });

  it('takes a width and a dash pattern', () => {
    const enter = seriesLine(fields, { width: 1.5, dash: [3, 3] }).encode?.enter;
    expect(enter).toMatchObject({ strokeDash: { value: [3, 3] }, strokeWidth: { value: 1.5 } });
  });

  it('is the line of lineWithPoints, whose points share its channels', () => {
    const [line, points] = lineWithPoints({ ...fields, xOffset: 'shift', size: 30 });
    expect(line).toEqual(seriesLine({ ...fields, xOffset: 'shift' }));
    expect(points.encode?.enter).toEqual({
      x: { scale: 'x', field: 'positions', offset: { field: 'shift' } },
      y: { scale: 'y', field: 'errors' },
      fill: { scale: 'color', field: 'run' },
      size: { value: 30 },
    });
  });
});
