import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { clientSettingsSchema } from '@bathylog/shared';
import { SettingsProvider } from '../../../lib/settings';
import { ArchiveSettings } from './archive-settings';

const api = vi.hoisted(() => ({ update: vi.fn(async (..._args: unknown[]) => undefined) }));
vi.mock('../../../api/records', () => ({ updateRecord: api.update }));

afterEach(() => {
  cleanup();
  api.update.mockClear();
});

function renderForm(embargoUntil: string | null) {
  render(
    <SettingsProvider settings={clientSettingsSchema.parse({ publicArchive: true })}>
      <ArchiveSettings
        kind="cruise"
        id="c1"
        isPublic={true}
        embargoUntil={embargoUntil}
        onSaved={async () => undefined}
      />
    </SettingsProvider>,
  );
}

describe('ArchiveSettings', () => {
  it('re-saving keeps an embargo that ends in the middle of a day (it shows only the date)', async () => {
    renderForm('2026-03-14T18:00:00.000Z');
    expect(screen.getByLabelText(/Embargoed until/)).toHaveProperty('value', '2026-03-14');
    fireEvent.change(screen.getByLabelText('Visibility'), { target: { value: 'public' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save archive setting' }));
    expect(await screen.findByRole('status')).toHaveProperty('textContent', 'Archive setting saved');
    expect(api.update).toHaveBeenCalledWith('cruise', 'c1', {
      cruise_public: true,
      cruise_embargo_until: '2026-03-14T18:00:00.000Z',
    });
  });

  it('a date the user types opens at UTC midnight of that day', async () => {
    renderForm('2026-03-14T18:00:00.000Z');
    fireEvent.input(screen.getByLabelText(/Embargoed until/), { target: { value: '2026-04-01' } });
    fireEvent.click(screen.getByRole('button', { name: 'Save archive setting' }));
    await screen.findByRole('status');
    expect(api.update).toHaveBeenCalledWith('cruise', 'c1', {
      cruise_public: true,
      cruise_embargo_until: '2026-04-01T00:00:00.000Z',
    });
  });
});
