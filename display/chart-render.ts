import type * as vegaType from 'vega';
import { writeFileAtomic } from '../files/atomic-write.ts';

/**
 * Renders a Vega spec to `<base>.svg` and `<base>.png` (1000 px wide), both
 * written atomically. Returns the two paths. Vega and resvg are imported on
 * the first chart, not with this module: together they take about half a
 * second to load, which every command that can draw a chart (eval, accuracy,
 * train) would otherwise pay before reading its arguments.
 */
export async function writeChart(base: string, spec: vegaType.Spec): Promise<[string, string]> {
  const [vega, { Resvg }] = await Promise.all([import('vega'), import('@resvg/resvg-js')]);
  const view = new vega.View(vega.parse(spec), { renderer: 'none' });
  const svg = await view.toSVG();
  view.finalize();
  writeFileAtomic(`${base}.svg`, svg);
  const png = new Resvg(svg, {
    fitTo: { mode: 'width', value: 1000 },
    font: { loadSystemFonts: true },
  })
    .render()
    .asPng();
  writeFileAtomic(`${base}.png`, png);
  return [`${base}.svg`, `${base}.png`];
}
