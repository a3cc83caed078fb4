import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * Contrast failures of the shared dark theme (apps/web/src/app/theme.css) that axe finds on every
 * screen: white on the theme's primary/success/warning/info colours (buttons, alerts), and the
 * footer's grey text, red ASNAP state and links. They are a theme decision for the whole client (reported to
 * the lead, not fixed per screen). A button with its own inline colours (a template's
 * `event_button_color`) is never excused, and every other rule and element still fails the check.
 */
/** Foreground on background pairs of the theme's palette that fall below 4.5:1. */
const themePairs = new Set([
  '#ffffff on #2a9fd6', // primary buttons, links as buttons
  '#ffffff on #2387b6', // primary button under the mouse
  '#ffffff on #659800', // success button under the mouse
  '#ffffff on #77b300', // success buttons and alerts
  '#ffffff on #ff8800', // warning
  '#ffffff on #9933cc', // info
  '#cc0000 on #222222', // danger text on the dark bars and cards
]);

interface AxeNode {
  html: string;
  target: unknown[];
  any: Array<{ data?: unknown }>;
}

function themeOwned(node: AxeNode): boolean {
  // A template's own colours are set inline through Bootstrap's button variables: never excused.
  if (node.html.includes('--bs-btn-bg')) return false;
  const target = node.target.map(String).join(' ');
  if (target.includes('footer') || /app-footer|sealog-server\/documentation|opensource\.org/.test(node.html))
    return true;
  const data = (node.any[0]?.data ?? {}) as { fgColor?: string; bgColor?: string };
  return themePairs.has(`${data.fgColor} on ${data.bgColor}`);
}

/** Runs axe-core's WCAG 2 A/AA rules on the page and expects no violations beyond the theme's. */
export async function expectAccessible(page: Page): Promise<void> {
  const result = await new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']).analyze();
  const left = result.violations
    .map((v) => ({
      ...v,
      nodes: v.nodes.filter(
        (node) => !((v.id === 'color-contrast' || v.id.startsWith('link-in-text-block')) && themeOwned(node)),
      ),
    }))
    .filter((v) => v.nodes.length > 0)
    .map((v) => ({
      id: v.id,
      help: v.help,
      nodes: v.nodes.map((n) => `${n.target.join(' ')}: ${n.failureSummary ?? ''}`),
    }));
  expect(left).toEqual([]);
}
