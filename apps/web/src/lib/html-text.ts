/**
 * Text for library APIs that take HTML (Leaflet's tooltips, popups, icons, layer names and
 * attributions): stored or configured text goes in as text, never parsed as markup, so a value
 * such as `<img src=x onerror=…>` shows as those characters instead of running in every viewer's
 * page. The lint rule of eslint.config.js ("HTML sinks") sends every such call through here.
 */

/** An element whose content is `text` as plain text (set with textContent). */
export function textElement(text: string, tagName: 'span' | 'div' = 'span'): HTMLElement {
  const el = document.createElement(tagName);
  el.textContent = text;
  return el;
}

const htmlEscapes: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

/** `text` escaped for an API that only takes an HTML string: it shows exactly as written. */
export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => htmlEscapes[c]!);
}

const namedEntities: Record<string, string> = {
  amp: '&',
  lt: '<',
  gt: '>',
  quot: '"',
  apos: "'",
  nbsp: '\u00a0',
  copy: '\u00a9',
  reg: '\u00ae',
  trade: '\u2122',
  mdash: '\u2014',
  ndash: '\u2013',
  middot: '\u00b7',
};

/**
 * A tile layer's attribution as the settings write it (Leaflet's convention is an HTML snippet such
 * as `Tiles &copy; Esri` or `&copy; <a href="…">OpenStreetMap</a>`), reduced to its text: tags are
 * dropped and the common entities decoded, then escaped again for Leaflet. Links in an attribution
 * show as their text. Not DOMParser: Chromium still tries the inline handlers of a parsed
 * attribution (the page's Content-Security-Policy reports them), so the text is never parsed as HTML.
 */
export function attributionHtml(attribution: string): string {
  const text = attribution
    .replace(/<[^>]*>?/g, '')
    .replace(/&(#x[0-9a-f]+|#[0-9]+|[a-z]+);/gi, (whole, ref: string) => {
      if (ref[0] === '#') {
        const code = ref[1] === 'x' || ref[1] === 'X' ? parseInt(ref.slice(2), 16) : parseInt(ref.slice(1), 10);
        return code > 0 && code <= 0x10ffff ? String.fromCodePoint(code) : whole;
      }
      return namedEntities[ref.toLowerCase()] ?? whole;
    });
  return escapeHtml(text);
}
