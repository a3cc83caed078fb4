import { describe, expect, it } from 'vitest';
import { attributionHtml, escapeHtml, textElement } from './html-text';

const payload = '<img src=x onerror="window.__xss=1">';

describe('text for HTML-taking APIs', () => {
  it('builds an element that holds the text as text', () => {
    const el = textElement(payload);
    expect(el.textContent).toBe(payload);
    expect(el.querySelector('img')).toBeNull();
  });

  it('escapes a string so markup shows as written', () => {
    const host = document.createElement('div');
    host.innerHTML = escapeHtml(`${payload} & 'quotes'`); // eslint-disable-line no-restricted-syntax -- checks the escaping
    expect(host.textContent).toBe(`${payload} & 'quotes'`);
    expect(host.querySelector('img')).toBeNull();
  });

  it('reduces an attribution to its text, entities decoded', () => {
    const show = (html: string) => {
      const host = document.createElement('div');
      host.innerHTML = attributionHtml(html); // eslint-disable-line no-restricted-syntax -- checks the escaping
      return host;
    };
    expect(show('Tiles &copy; Esri').textContent).toBe('Tiles \u00a9 Esri');
    expect(show('&#169; <a href="https://osm.org">OpenStreetMap</a> contributors').textContent).toBe(
      '\u00a9 OpenStreetMap contributors',
    );
    const hostile = show(`GMRT ${payload} &lt;script&gt;x&lt;/script&gt;`);
    expect(hostile.querySelector('img, script')).toBeNull();
    expect(hostile.textContent).toBe('GMRT  <script>x</script>');
  });
});
