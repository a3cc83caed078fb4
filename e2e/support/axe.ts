import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * Runs axe-core's WCAG 2 A/AA rules on the screen (the page's `main`, or another part) and expects
 * no violations. The header and footer are checked by their own specs.
 */
export async function expectAccessible(page: Page, include = 'main'): Promise<void> {
  let builder = new AxeBuilder({ page }).withTags(['wcag2a', 'wcag2aa']);
  if (include) builder = builder.include(include);
  const result = await builder.analyze();
  const summary = result.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => n.target.join(' ')).join(', ')})`,
  );
  expect(summary, 'axe-core WCAG 2 AA violations').toEqual([]);
}
