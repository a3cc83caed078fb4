import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The HTML-sink rule of eslint.config.js, run the way `npm run lint` runs it, on snippets placed in
 * the client: each way stored text could reach markup is reported, and the safe forms are not.
 */
const eslint = new ESLint();

async function sinkReports(code: string): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath: 'apps/web/src/lint-probe.tsx' });
  return result!.messages.filter((m) => m.message.startsWith('HTML sink')).length;
}

describe('the HTML-sink lint rule', () => {
  it.each([
    ['innerHTML assignment', 'export function f(el: HTMLElement, v: string) { el.innerHTML = v; }'],
    ['outerHTML assignment', 'export function f(el: HTMLElement, v: string) { el.outerHTML = `<b>${v}</b>`; }'],
    [
      'innerHTML through Object.assign',
      'export function f(el: HTMLElement, v: string) { Object.assign(el, { innerHTML: v }); }',
    ],
    ['insertAdjacentHTML', "export function f(el: HTMLElement, v: string) { el.insertAdjacentHTML('beforeend', v); }"],
    ['document.write', 'export function f(v: string) { document.write(v); }'],
    [
      'dangerouslySetInnerHTML',
      'export const C = ({ v }: { v: string }) => <div dangerouslySetInnerHTML={{ __html: v }} />;',
    ],
    [
      'Leaflet bindTooltip with a string',
      "import L from 'leaflet'; export function f(m: L.CircleMarker, v: string) { m.bindTooltip(`${v} - x`); }",
    ],
    [
      'Leaflet bindPopup with a string',
      "import L from 'leaflet'; export function f(m: L.Marker, v: string) { m.bindPopup(v); }",
    ],
    [
      'Leaflet setPopupContent with a string',
      "import L from 'leaflet'; export function f(m: L.Marker, v: string) { m.setPopupContent(v); }",
    ],
    [
      'Leaflet setContent with a string',
      "import L from 'leaflet'; export function f(p: L.Popup, v: string) { p.setContent(v); }",
    ],
    ['Leaflet divIcon html string', "import L from 'leaflet'; export const f = (v: string) => L.divIcon({ html: v });"],
    [
      'Leaflet layer name',
      "import L from 'leaflet'; export function f(c: L.Control.Layers, l: L.Layer, v: string) { c.addOverlay(l, v); }",
    ],
    [
      'Leaflet layer attribution',
      "import L from 'leaflet'; export const f = (u: string, v: string) => L.tileLayer(u, { attribution: v });",
    ],
  ])('reports %s', async (_name, code) => {
    expect(await sinkReports(code)).toBeGreaterThan(0);
  });

  it('accepts text passed as text', async () => {
    const code = [
      "import L from 'leaflet';",
      "import { attributionHtml, escapeHtml, textElement } from './lib/html-text';",
      'export function f(m: L.CircleMarker, c: L.Control.Layers, l: L.Layer, el: HTMLElement, v: string) {',
      '  m.bindTooltip(textElement(v), { direction: "top" });',
      '  m.bindPopup(textElement(v));',
      '  c.addOverlay(l, escapeHtml(v));',
      '  el.textContent = v;',
      '  L.tileLayer(v, { attribution: attributionHtml(v) });',
      '  return [L.divIcon({ html: textElement(v) }), el.innerHTML];',
      '}',
      'export const C = ({ v }: { v: string }) => <div title={v}>{v}</div>;',
    ].join('\n');
    expect(await sinkReports(code)).toBe(0);
  });
});
