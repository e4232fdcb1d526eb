import type { CssFix } from '@argus/protocol';
import type { ElementInfo } from './capture';
import type { RegionAnalysis } from './classify';
import { deltaE, parseCssColor, type Rgb, toHex } from './color';

function fix(selector: string, property: string, current: string | null, recommended: string): CssFix {
  return {
    selector,
    property,
    current_value: current === '' ? null : current,
    recommended_value: recommended,
    css_code: `${selector} { ${property}: ${recommended}; }`,
  };
}

const px = (value: string | undefined): number | null => {
  const m = /^(-?[\d.]+)px$/.exec((value ?? '').trim());
  return m ? Number(m[1]) : null;
};
const fmtPx = (n: number) => `${Math.round(n)}px`;

/**
 * The CSS changes that bring the element under a difference closer to the design: for a colour, the
 * property whose computed colour is the one the site shows (background-color or color) set to the
 * design's colour; for a text size, font-size scaled by the ratio of the glyphs' extent; for a shift,
 * the element's top / left (positioned) or margin-top / margin-left moved by the offset.
 */
export function cssFixes(analysis: RegionAnalysis, element: ElementInfo | null): CssFix[] {
  if (!element) return [];
  const { selector, style } = element;
  switch (analysis.kind) {
    case 'colour': {
      const fixes: CssFix[] = [];
      const background = parseCssColor(style['background-color']);
      const color = parseCssColor(style.color);
      const near = (css: { rgb: Rgb; alpha: number } | null, shown: Rgb | null) =>
        !!css && !!shown && css.alpha > 0.5 && deltaE(css.rgb, shown) < 3;
      // The site's ink colour is the element's background (a filled button) or its text colour.
      if (analysis.colourSite && analysis.colourDesign) {
        if (near(background, analysis.colourSite))
          fixes.push(
            fix(selector, 'background-color', style['background-color'], toHex(analysis.colourDesign)),
          );
        else if (near(color, analysis.colourSite))
          fixes.push(fix(selector, 'color', style.color, toHex(analysis.colourDesign)));
      }
      if (
        fixes.length === 0 &&
        deltaE(analysis.backgroundDesign, analysis.backgroundSite) > 2 &&
        near(background, analysis.backgroundSite)
      )
        fixes.push(
          fix(selector, 'background-color', style['background-color'], toHex(analysis.backgroundDesign)),
        );
      return fixes;
    }
    case 'size': {
      const a = analysis.inkDesign;
      const b = analysis.inkSite;
      if (!a || !b) return [];
      const hasText = element.text.length > 0;
      const fontSize = px(style['font-size']);
      if (hasText && fontSize) {
        // Glyph extent scales with the font size: height always; width too on a single line, and it is
        // the more precise of the two when both agree.
        const byHeight = a.height / b.height;
        const byWidth = a.width / b.width;
        const ratio = Math.abs(byWidth - byHeight) < 0.1 ? byWidth : byHeight;
        const recommended = Math.round(fontSize * ratio);
        return recommended !== Math.round(fontSize)
          ? [fix(selector, 'font-size', style['font-size'], `${recommended}px`)]
          : [];
      }
      const fixes: CssFix[] = [];
      const width = px(style.width);
      const height = px(style.height);
      if (width !== null && Math.abs(a.width - b.width) > 2)
        fixes.push(fix(selector, 'width', style.width, fmtPx(width + a.width - b.width)));
      if (height !== null && Math.abs(a.height - b.height) > 2)
        fixes.push(fix(selector, 'height', style.height, fmtPx(height + a.height - b.height)));
      return fixes;
    }
    case 'shift': {
      const fixes: CssFix[] = [];
      const positioned = style.position !== 'static' && style.position !== '';
      const move = (offset: number, inset: 'top' | 'left', margin: 'margin-top' | 'margin-left') => {
        if (Math.abs(offset) < 2) return;
        const current = positioned ? px(style[inset]) : null;
        if (current !== null) fixes.push(fix(selector, inset, style[inset], fmtPx(current + offset)));
        else fixes.push(fix(selector, margin, style[margin], fmtPx((px(style[margin]) ?? 0) + offset)));
      };
      move(analysis.dy, 'top', 'margin-top');
      move(analysis.dx, 'left', 'margin-left');
      return fixes;
    }
    default:
      return [];
  }
}
