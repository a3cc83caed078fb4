import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { clientSettingsSchema, type LogEvent, type Ship } from '@bathylog/shared';
import { SettingsProvider } from '../../lib/settings';
import { EventLine } from '../../domain/events/components/event-line';
import { RecordRowActions } from '../../domain/records/components/record-row-actions';
import { FromShip, readOnlyReason } from '../../domain/records/components/from-ship';
import { ShipsTable } from './ships-table';

afterEach(cleanup);

const settings = clientSettingsSchema.parse({ customCruiseName: ['expedition', 'expeditions'] });
const refusal = 'This record comes from the ship Falkor (too) and is read-only here; change it on the ship.';

const ship: Ship = {
  id: 'a1',
  name: 'Falkor (too)',
  url: 'https://ship.example.org',
  enabled: true,
  bandwidth_kbps: 256,
  state: 'catching_up',
  last_contact: null,
  last_error: 'connect ETIMEDOUT',
  cursor: null,
  behind_records: 12_345,
  behind_bytes: 38_400_000,
  queued_files: 3,
  queued_bytes: 1536,
  records: { cruises: 1, lowerings: 2, events: 3, aux_data: 4, files: 5 },
  refused_changes: 0,
  refusals: [],
};

function table(ships: Ship[], extra: Partial<Parameters<typeof ShipsTable>[0]> = {}) {
  const handlers = { onEdit: vi.fn(), onDelete: vi.fn() };
  render(
    <SettingsProvider settings={settings}>
      <ShipsTable ships={ships} loading={false} error="" selectedId={null} {...handlers} {...extra} />
    </SettingsProvider>,
  );
  return handlers;
}

describe('ShipsTable', () => {
  it('shows a ship: state in words, never contacted, behind, queued and copied in the configured words', () => {
    const { onEdit, onDelete } = table([ship]);
    const row = within(screen.getByTestId('ship-row-Falkor (too)'));
    expect(row.getByTestId('ship-state').textContent).toBe('Catching up');
    expect(row.getByText('connect ETIMEDOUT')).toBeTruthy();
    expect(row.getByText('Never')).toBeTruthy();
    expect(row.getByText('12,345 records')).toBeTruthy();
    expect(row.getByText('38.4 MB')).toBeTruthy();
    expect(row.getByText('3 files')).toBeTruthy();
    expect(row.getByText('1.54 kB')).toBeTruthy();
    expect(row.getByText('1 expeditions')).toBeTruthy();
    expect(row.getByText('4 aux data')).toBeTruthy();
    expect(row.getByText('cap 256 kbit/s')).toBeTruthy();
    fireEvent.click(row.getByRole('button', { name: 'Edit ship Falkor (too)' }));
    fireEvent.click(row.getByRole('button', { name: 'Delete ship Falkor (too)' }));
    expect(onEdit).toHaveBeenCalledWith(ship);
    expect(onDelete).toHaveBeenCalledWith(ship);
  });

  it('shows the changes the shore refused from a ship, with their reasons, as text', () => {
    table([ship]);
    expect(screen.queryByTestId('ship-refusals')).toBeNull();
    cleanup();
    const reason = "The record is not this ship's: the shore's own, or another ship's";
    table([
      {
        ...ship,
        refused_changes: 1234,
        refusals: [
          { at: '2026-03-03T12:00:00.000Z', record_type: 'cruise', record_id: '5981f167212b348aed7fa9f5', reason },
          {
            at: '2026-03-03T11:00:00.000Z',
            record_type: 'event',
            record_id: '<img src=x onerror=alert(1)>',
            reason: '"ts" must be a valid ISO 8601 date',
          },
        ],
      },
    ]);
    const refusals = within(screen.getByTestId('ship-refusals'));
    expect(refusals.getByText('1,234 changes refused')).toBeTruthy();
    const items = refusals.getAllByRole('listitem').map((li) => li.textContent);
    expect(items[0]).toContain(`cruise 5981f167212b348aed7fa9f5: ${reason}`);
    // What a ship sent is shown as text, never as markup.
    expect(items[1]).toContain('event <img src=x onerror=alert(1)>: "ts" must be a valid ISO 8601 date');
    expect(screen.getByTestId('ship-refusals').querySelector('img')).toBeNull();
  });

  it('has its empty, loading and failed states', () => {
    table([]);
    expect(screen.getByText('No ships found! Add one with the form.')).toBeTruthy();
    cleanup();
    table([], { loading: true });
    expect(screen.getByRole('status').textContent).toBe('Loading...');
    cleanup();
    table([], { error: 'Unable to connect to server' });
    expect(screen.getByRole('alert').textContent).toBe('Oops! Unable to connect to server');
  });
});

describe('a record copied from a ship', () => {
  const origin = { ship_id: 'a1', ship_name: 'Falkor (too)' };

  it('cannot be edited, hidden or deleted from its management row; the reason is the tooltip', () => {
    const handlers = {
      onEdit: vi.fn(),
      onPermissions: vi.fn(),
      onExport: vi.fn(),
      onToggleHidden: vi.fn(),
      onDelete: vi.fn(),
    };
    render(
      <RecordRowActions
        row={{ id: 'c1', humanId: 'FKt230303', hidden: false, readOnly: readOnlyReason(origin) }}
        word="Cruise"
        isAdmin
        useAccessControl
        summary={() => ''}
        {...handlers}
      />,
    );
    for (const name of ['Edit FKt230303', 'Permissions of FKt230303', 'Hide FKt230303', 'Delete FKt230303']) {
      const button = screen.getByRole('button', { name });
      expect(button.getAttribute('aria-disabled')).toBe('true');
      expect(button.getAttribute('title')).toBe(refusal);
      fireEvent.click(button);
    }
    expect(handlers.onEdit).not.toHaveBeenCalled();
    expect(handlers.onPermissions).not.toHaveBeenCalled();
    expect(handlers.onToggleHidden).not.toHaveBeenCalled();
    expect(handlers.onDelete).not.toHaveBeenCalled();
    // Export stays: it changes nothing.
    fireEvent.click(screen.getByRole('button', { name: 'Export FKt230303' }));
    expect(handlers.onExport).toHaveBeenCalledTimes(1);
  });

  it('says where it came from; a record of this server says nothing', () => {
    render(<FromShip origin={origin} />);
    expect(screen.getByTestId('from-ship').textContent).toBe('From ship Falkor (too)');
    expect(screen.getByTestId('from-ship').getAttribute('title')).toBe(refusal);
    cleanup();
    const { container } = render(<FromShip origin={undefined} />);
    expect(container.textContent).toBe('');
  });

  it('keeps its own rows editable', () => {
    const onEdit = vi.fn();
    render(
      <RecordRowActions
        row={{ id: 'c1', humanId: 'FKt230303', hidden: false, readOnly: readOnlyReason(undefined) }}
        word="Cruise"
        isAdmin
        useAccessControl={false}
        summary={() => ''}
        onEdit={onEdit}
        onPermissions={vi.fn()}
        onExport={vi.fn()}
        onToggleHidden={vi.fn()}
        onDelete={vi.fn()}
      />,
    );
    const edit = screen.getByRole('button', { name: 'Edit FKt230303' });
    expect(edit.getAttribute('aria-disabled')).toBeNull();
    fireEvent.click(edit);
    expect(onEdit).toHaveBeenCalledTimes(1);
  });

  it('keeps the comment of an event but not its delete', () => {
    const event: LogEvent = {
      id: 'e1',
      event_author: 'pilot',
      ts: '2026-03-03T12:00:00.000Z',
      event_value: 'FISH',
      event_options: [],
      event_free_text: '',
      origin,
    };
    const onDelete = vi.fn();
    const onComment = vi.fn();
    render(<EventLine event={event} onDelete={onDelete} onComment={onComment} />);
    const trash = screen.getByRole('button', { name: 'Delete this event' });
    expect(trash.getAttribute('aria-disabled')).toBe('true');
    expect(trash.getAttribute('title')).toBe(refusal);
    fireEvent.click(trash);
    expect(onDelete).not.toHaveBeenCalled();
    fireEvent.click(screen.getByRole('button', { name: 'Add Comment' }));
    expect(onComment).toHaveBeenCalledWith(event);
  });
});
