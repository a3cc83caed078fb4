import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { EventTemplate } from '@bathylog/shared';
import { EventOptionsModal } from './event-options-modal';

afterEach(cleanup);

const template: EventTemplate = {
  id: '5dac67d6a78d2f4ec028551f',
  event_name: 'Data Logging',
  event_value: 'CRUISE',
  event_free_text_required: true,
  system_template: false,
  template_categories: [],
  admin_only: false,
  event_options: [
    {
      event_option_name: 'System',
      event_option_type: 'checkboxes',
      event_option_values: ['OpenRVDAS', 'UHDAS'],
      event_option_default_value: '',
      event_option_required: true,
      event_option_allow_freeform: false,
    },
  ],
};

describe('EventOptionsModal', () => {
  it('offers only Cancel as a preview (Event Templates → test)', () => {
    const onCancel = vi.fn();
    render(<EventOptionsModal preview template={template} eventTs={Date.now()} onCancel={onCancel} />);
    expect(screen.queryByRole('button', { name: 'Submit' })).toBeNull();
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onCancel).toHaveBeenCalledOnce();
  });

  it('checks the answers, then hands back the values', async () => {
    const onSubmit = vi.fn();
    render(
      <EventOptionsModal
        template={template}
        eventTs={Date.parse('2025-05-06T11:54:49.000Z')}
        onSubmit={onSubmit}
        onCancel={vi.fn()}
      />,
    );
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(await screen.findByText('Must select at least one option')).toBeTruthy();
    expect(screen.getByText('Required')).toBeTruthy();
    expect(onSubmit).not.toHaveBeenCalled();

    const group = screen.getByRole('group', { name: 'System' });
    fireEvent.click(within(group).getByLabelText('UHDAS'));
    fireEvent.click(within(group).getByLabelText('OpenRVDAS'));
    // Typing fires `input`, which onChange follows on React and on Preact's compat layer alike.
    fireEvent.input(screen.getByLabelText('Additional Text'), { target: { value: 'all on' } });
    fireEvent.input(screen.getByLabelText('Custom Time (UTC)'), { target: { value: '2025-05-06 12:00:00' } });
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    await vi.waitFor(() => expect(onSubmit).toHaveBeenCalledOnce());
    expect(onSubmit).toHaveBeenCalledWith(
      {
        event_options: [{ event_option_name: 'System', event_option_value: 'OpenRVDAS;UHDAS' }],
        event_free_text: 'all on',
        ts: '2025-05-06T12:00:00.000Z',
      },
      [],
    );
  });
});
