import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

const iconFont = /node_modules[\\/]bootstrap-icons[\\/]/;

/** `.bi-trash-fill::before`: the icon a rule of bootstrap-icons.css draws. */
const iconRule = /^\.bi-([a-z0-9-]+)::before$/;

/** An SVG file as a CSS `url()`: one line, `'` quotes, the characters a data URL must escape. */
export function svgUrl(svg: string): string {
  const body = svg
    .replace(/\s(class|width|height|fill)="[^"]*"/g, '')
    .replace(/\s+/g, ' ')
    .replace(/>\s+</g, '><')
    .trim()
    .replace(/"/g, "'")
    .replace(/[%#<>]/g, (c) => encodeURIComponent(c));
  return `url("data:image/svg+xml,${body}")`;
}

/**
 * A PostCSS plugin for the production build, run after the pruning: Bootstrap Icons drawn from
 * their SVG files instead of the icon font, for a ship's thin link. The font is 130 kB of woff2 for
 * the 40 icons we use, and `font-display: block` hides them until it has crossed the link; each
 * icon's SVG (bootstrap-icons/icons/NAME.svg, the same drawing as the font's glyph) becomes the CSS
 * mask of the rule that drew the glyph (a custom property, so the minifier's -webkit- copy of the
 * mask does not repeat the SVG), painted in `currentColor` on the same 1em box and baseline, so the
 * markup (`<i class="bi bi-trash-fill">`) and the look stay. The `@font-face` goes with the font.
 */
export function iconMasks(webRoot: string) {
  const icons = path.join(
    path.dirname(createRequire(path.join(webRoot, 'package.json')).resolve('bootstrap-icons/package.json')),
    'icons',
  );
  return {
    postcssPlugin: 'bathylog-icon-masks',
    OnceExit(root: CssNode) {
      if (!iconFont.test(root.source?.input.file ?? '')) return;
      root.walkAtRules?.('font-face', (rule) => rule.remove());
      let base = false;
      root.walkRules?.((rule) => {
        const selectors = rule.selector!.split(',').map((s) => s.trim());
        if (selectors.includes('.bi::before')) {
          if (base) return; // the forced-colours rule below
          base = true;
          rule.removeAll!();
          rule.append!(
            'display:inline-block;width:1em;height:1em;content:"";vertical-align:-.125em;' +
              'background-color:currentColor;mask:var(--bi-svg) center/100% 100% no-repeat',
          );
          // Forced colours (Windows high contrast) would paint the mask in the page's background.
          rule.after!(
            '@media (forced-colors:active){.bi::before{forced-color-adjust:none;background-color:CanvasText}}',
          );
          return;
        }
        const name = selectors.length === 1 ? iconRule.exec(selectors[0]!)?.[1] : undefined;
        if (!name) return;
        const file = path.join(icons, `${name}.svg`);
        if (!existsSync(file)) throw new Error(`bootstrap-icons has no ${name}.svg for .bi-${name}`);
        rule.removeAll!();
        rule.append!(`--bi-svg:${svgUrl(readFileSync(file, 'utf8'))}`);
      });
    },
  };
}

/** The few members of PostCSS's nodes used here (PostCSS itself comes with Vite, not as our dependency). */
interface CssNode {
  source?: { input: { file?: string } };
  selector?: string;
  walkAtRules?: (name: string, fn: (node: CssNode) => void) => void;
  walkRules?: (fn: (node: CssNode) => void) => void;
  remove: () => void;
  removeAll?: () => void;
  append?: (css: string) => void;
  after?: (css: string) => void;
}
