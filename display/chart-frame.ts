import type * as vega from 'vega';

/** Fonts that resvg finds on a Debian machine (DejaVu) and browsers elsewhere. */
const FONT = 'DejaVu Sans, Arial, sans-serif';

/**
 * What every chart of the project shares: the Vega schema, a white background
 * (the PNGs are shown on dark pages too) and one font for every text, so that
 * the charts of training, evaluation, accuracy and sweeps look alike. Spread
 * into a spec and add its title, data, scales and marks.
 */
export function chartFrame(size: {
  width: number;
  height: number;
  padding?: number;
}): Pick<vega.Spec, '$schema' | 'width' | 'height' | 'padding' | 'background' | 'config'> {
  return {
    $schema: 'https://vega.github.io/schema/vega/v5.json',
    width: size.width,
    height: size.height,
    padding: size.padding ?? 12,
    background: 'white',
    config: {
      text: { font: FONT },
      axis: { labelFont: FONT, titleFont: FONT },
      legend: { labelFont: FONT, titleFont: FONT },
      title: { font: FONT, subtitleFont: FONT },
    },
  };
}
