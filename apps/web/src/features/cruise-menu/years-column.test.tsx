import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, render, screen } from '@testing-library/react';
import { clientSettingsSchema, type Cruise } from '@bathylog/shared';
import { SettingsProvider } from '../../lib/settings';
import { YearsColumn } from './years-column';

afterEach(cleanup);

const settings = clientSettingsSchema.parse({});
const cruise = (id: string, year: number) =>
  ({ id: `c-${id}`, cruise_id: id, start_ts: `${year}-03-01T00:00:00.000Z` }) as unknown as Cruise;

function renderYears(years: number[]) {
  render(
    <SettingsProvider settings={settings}>
      <YearsColumn
        years={years.map((year) => ({ year, cruises: [cruise(`AT${year}`, year)] }))}
        loading={false}
        openYear={years[0]!}
        selectedCruiseId={null}
        onOpenYear={vi.fn()}
        onSelectCruise={vi.fn()}
      />
    </SettingsProvider>,
  );
}

/** The classes from the year label up to its heading, where a smaller text size would come from. */
function sizeClasses(label: HTMLElement): string[] {
  const found: string[] = [];
  for (let el: HTMLElement | null = label; el && el.tagName !== 'H2'; el = el.parentElement)
    found.push(...el.classList);
  return found;
}

describe('YearsColumn', () => {
  it('heads one year and several years alike: a level-2 heading, no smaller text in the accordion', () => {
    renderYears([2023]);
    expect(screen.getByRole('heading', { level: 2, name: 'Year: 2023' })).toBeTruthy();
    expect(sizeClasses(screen.getByTestId('year-label'))).not.toContain('small');
    cleanup();
    renderYears([2024, 2023]);
    expect(screen.getByRole('heading', { level: 2, name: 'Year: 2024' })).toBeTruthy();
    for (const label of screen.getAllByTestId('year-label')) {
      // Bootstrap sets the accordion button's text at body size, as the card's heading (fs-6).
      expect(sizeClasses(label)).not.toContain('small');
    }
  });
});
