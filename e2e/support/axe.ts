import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

/**
 * Runs axe-core's WCAG 2 A and AA rules and expects no violations: the whole page (header, screen
 * and footer) by default, or one part of it (a CSS selector such as '.modal' or '[role="dialog"]').
 * Nothing is excused: a contrast failure of the shared theme is fixed in theme.css.
 */
export async function expectAccessible(page: Page, include?: string): Promise<void> {
  // A toast or a modal fading in has, for those 150 ms, colours blended with the page behind it:
  // the check is of what the crew reads once it is there.
  const settled = () =>
    page.waitForFunction(() =>
      document.getAnimations().every((a) => !(a instanceof CSSTransition) || a.playState !== 'running'),
    );
  const analyze = () =>
    (include ? new AxeBuilder({ page }).include(include) : new AxeBuilder({ page }))
      .withTags(['wcag2a', 'wcag2aa'])
      .analyze();
  await settled();
  let result = await analyze();
  // A toast that began to fade in while axe read the page (a live screen posts them at any moment)
  // was read half-drawn: read the page again once it is drawn. What fails for good fails twice.
  if (result.violations.length > 0) {
    await settled();
    result = await analyze();
  }
  const summary = result.violations.map(
    (v) => `${v.id}: ${v.help} (${v.nodes.map((n) => `${n.target.join(' ')} ${n.failureSummary ?? ''}`).join('; ')})`,
  );
  expect(summary, 'axe-core WCAG 2 AA violations').toEqual([]);
}
