import { describe, expect, it } from 'vitest';
import type { EventTemplate } from '@bathylog/shared';
import { allCategory, categoryTabs, initialTab, templatesInTab, usableTemplates } from './categories';

function template(name: string, categories: string[], extra: Partial<EventTemplate> = {}): EventTemplate {
  return {
    id: name,
    event_name: name,
    event_value: name.toUpperCase(),
    event_free_text_required: false,
    system_template: false,
    template_categories: categories,
    admin_only: false,
    event_options: [],
    ...extra,
  };
}

const templates = [
  template('Bird', ['observation', 'science']),
  template('CTD', ['ctd']),
  template('Off Deck', ['vehicle']),
  template('Sample', ['science', 'sample']),
  template('Loose', []),
];

describe('category tabs', () => {
  it('lists categories alphabetically with All last when nothing is configured', () => {
    expect(categoryTabs(templates, null)).toEqual(['ctd', 'observation', 'sample', 'science', 'vehicle', allCategory]);
  });

  it('puts configured categories first in their order, the rest after alphabetically', () => {
    expect(categoryTabs(templates, ['vehicle', 'biology', 'sample'])).toEqual([
      'vehicle',
      'sample',
      'ctd',
      'observation',
      'science',
      allCategory,
    ]);
  });

  it('gives no tabs when no template has a category', () => {
    expect(categoryTabs([template('A', []), template('B', [' '])], null)).toEqual([]);
  });

  it('shows a template under each of its categories, and every template under All', () => {
    expect(templatesInTab(templates, 'science').map((t) => t.event_name)).toEqual(['Bird', 'Sample']);
    expect(templatesInTab(templates, allCategory)).toHaveLength(5);
  });

  it('remembers a tab only while it exists', () => {
    const tabs = ['vehicle', 'sample', allCategory];
    expect(initialTab(tabs, 'sample')).toBe('sample');
    expect(initialTab(tabs, 'gone')).toBe('vehicle');
    expect(initialTab([], 'sample')).toBeNull();
  });

  it('drops disabled templates', () => {
    expect(
      usableTemplates([template('A', [], { disabled: true }), template('B', [], { disabled: false })]).map(
        (t) => t.event_name,
      ),
    ).toEqual(['B']);
  });
});
