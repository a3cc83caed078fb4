import { createRef } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { DateTimePopover } from './date-time-popover';

afterEach(cleanup);

function open(props: { value?: string; near?: string; edge?: 'start' | 'end' } = {}) {
  const onPick = vi.fn();
  render(
    <DateTimePopover
      mode="datetime"
      edge={props.edge ?? 'start'}
      value={props.value ?? ''}
      near={props.near}
      label="Choose date and time (UTC)"
      anchor={createRef<HTMLElement>()}
      onPick={onPick}
      onClose={vi.fn()}
    />,
  );
  return onPick;
}

describe('DateTimePopover', () => {
  it("opens an empty field's calendar on the record's month, not today's", () => {
    const onPick = open({ near: '2023-03-14T22:15:00.000Z', edge: 'end' });
    expect(screen.getByRole('grid', { name: 'March 2023' })).toBeTruthy();
    expect(document.activeElement?.getAttribute('aria-label')).toBe('14 March 2023');
    fireEvent.click(screen.getByRole('button', { name: 'Set' }));
    expect(onPick).toHaveBeenCalledWith('2023-03-14 23:59:59.999');
  });

  it('opens on the typed value first', () => {
    open({ value: '2021-07-02 10:00', near: '2023-03-14T22:15:00.000Z' });
    expect(screen.getByRole('grid', { name: 'July 2021' })).toBeTruthy();
  });

  it('jumps to any month and year from the month list and the year box', () => {
    const onPick = open({ value: '2026-11-28 12:00' });
    fireEvent.change(screen.getByRole('combobox', { name: 'Month' }), { target: { value: '2' } });
    expect(screen.getByRole('grid', { name: 'March 2026' })).toBeTruthy();
    const year = screen.getByRole('spinbutton', { name: 'Year' }) as HTMLInputElement;
    // Part of a year changes nothing yet; the whole year jumps.
    fireEvent.input(year, { target: { value: '20' } });
    expect(screen.getByRole('grid', { name: 'March 2026' })).toBeTruthy();
    fireEvent.input(year, { target: { value: '2023' } });
    expect(screen.getByRole('grid', { name: 'March 2023' })).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Set' }));
    expect(onPick).toHaveBeenCalledWith('2023-03-28 12:00:00');
  });
});
