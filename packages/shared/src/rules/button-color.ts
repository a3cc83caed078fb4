/**
 * Template button colours (Sealog 2.4.5): a CSS hex colour, or (Sealog 2.4.17 vehicle, 2.4.9
 * vessel) a Bootstrap button variant name; and the label colour that keeps WCAG 2 AA contrast
 * (4.5:1) on a hex background. Black or white always reaches at least 4.58:1 on any colour.
 * Only a validated hex or one of the eight variant names ever reaches a style or class
 * (docs/sealog-clients.md#template-button-colours).
 */

/** The Bootstrap variants the Sealog 2.4 clients store as `event_button_color`. */
export const buttonVariants = [
  'primary',
  'secondary',
  'success',
  'danger',
  'warning',
  'info',
  'light',
  'dark',
] as const;
export type ButtonVariant = (typeof buttonVariants)[number];

/** The variant a stored colour names (exact, lower-case as the clients send it), or null. */
export function buttonVariantOf(color: string | null | undefined): ButtonVariant | null {
  return (buttonVariants as readonly string[]).includes(color ?? '') ? (color as ButtonVariant) : null;
}

/** True for the text a template may store as its button colour: a variant name or a hex colour. */
export function isButtonColor(color: string): boolean {
  return buttonVariantOf(color) !== null || /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i.test(color);
}

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
