/**
 * Template button colours (Sealog 2.4.5): the label colour that keeps WCAG 2 AA contrast (4.5:1)
 * on a chosen background. Black or white always reaches at least 4.58:1 on any colour.
 */

/** `#rgb` / `#rrggbb` → `#rrggbb` lower-cased, or null when the text is not a hex colour. */
export function normalizeHexColor(color: string): string | null {
  const m = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(color.trim());
  if (!m) return null;
  const hex = m[1]!.toLowerCase();
  return hex.length === 3 ? `#${[...hex].map((c) => c + c).join('')}` : `#${hex}`;
}

/** WCAG relative luminance of a hex colour. */
export function relativeLuminance(color: string): number {
  const hex = normalizeHexColor(color);
  if (!hex) throw new Error(`not a hex colour: ${color}`);
  const channel = (i: number) => {
    const c = parseInt(hex.slice(1 + i * 2, 3 + i * 2), 16) / 255;
    return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
  };
  return 0.2126 * channel(0) + 0.7152 * channel(1) + 0.0722 * channel(2);
}

/** WCAG contrast ratio of two hex colours (1 to 21). */
export function contrastRatio(a: string, b: string): number {
  const [hi, lo] = [relativeLuminance(a), relativeLuminance(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

/** The label colour for a button of this background: whichever of black and white contrasts more. */
export function buttonTextColor(background: string): '#000000' | '#ffffff' {
  return contrastRatio(background, '#000000') >= contrastRatio(background, '#ffffff') ? '#000000' : '#ffffff';
}
