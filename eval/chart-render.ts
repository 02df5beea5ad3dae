import { Resvg } from '@resvg/resvg-js';
import * as vega from 'vega';
import { writeFileAtomic } from './atomic-write.ts';

/**
 * Renders a Vega spec to `<base>.svg` and `<base>.png` (1000 px wide), both
 * written atomically. Returns the two paths.
 */
export async function writeChart(base: string, spec: vega.Spec): Promise<[string, string]> {
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
