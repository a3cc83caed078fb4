import type { EventTemplate } from '@bathylog/shared';

/** The tab that lists every template. */
export const allCategory = 'All';

/** Cookie that remembers the chosen tab across visits (docs/screens.md#template-buttons-and-categories). */
export const categoryCookie = 'category';

/** What the console offers: enabled templates only (the server already hides admin_only ones from others). */
export function usableTemplates(templates: readonly EventTemplate[]): EventTemplate[] {
  return templates.filter((t) => !t.disabled);
}

/**
 * The category tabs: every category of the templates, alphabetical, then reordered so the
 * configured sort list comes first in its order (unlisted ones after, still alphabetical); All
 * last. No tabs at all when no template has a category.
 */
export function categoryTabs(templates: readonly EventTemplate[], sortOrder: readonly string[] | null): string[] {
  const categories = [
    ...new Set(templates.flatMap((t) => t.template_categories.map((c) => c.trim())).filter((c) => c !== '')),
  ];
  if (categories.length === 0) return [];
  categories.sort((a, b) => a.localeCompare(b));
  const order = sortOrder ?? [];
  const rank = (c: string) => {
    const i = order.indexOf(c);
    return i === -1 ? order.length : i;
  };
  // Array.prototype.sort is stable: equal ranks keep the alphabetical order.
  categories.sort((a, b) => rank(a) - rank(b));
  return [...categories, allCategory];
}

/** The templates of one tab (a template appears under every category it lists). */
export function templatesInTab(templates: readonly EventTemplate[], tab: string | null): EventTemplate[] {
  if (!tab || tab === allCategory) return [...templates];
  return templates.filter((t) => t.template_categories.some((c) => c.trim() === tab));
}

/** The tab to show: the remembered one when it still exists, else the first category. */
export function initialTab(tabs: readonly string[], remembered: string | null): string | null {
  if (tabs.length === 0) return null;
  if (remembered && tabs.includes(remembered)) return remembered;
  return tabs[0]!;
}
