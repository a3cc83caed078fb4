import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import type { EventTemplate } from '@bathylog/shared';
import { EventTemplateForm } from './event-template-form';

afterEach(cleanup);

const stored: EventTemplate = {
  id: '5dac67d6a78d2f4ec028551e',
  event_name: 'Cruise Status',
  event_value: 'CRUISE',
  event_free_text_required: false,
  system_template: true,
  template_categories: ['cruise'],
  disabled: false,
  admin_only: true,
  event_options: [
    {
      event_option_name: 'Status',
      event_option_type: 'dropdown',
      event_option_values: ['Start of Cruise', 'End of Cruise'],
      event_option_default_value: '',
      event_option_required: true,
      event_option_allow_freeform: false,
    },
  ],
};

describe('EventTemplateForm', () => {
  it('shows the required messages on an empty submit', async () => {
    render(<EventTemplateForm template={null} isAdmin onSaved={vi.fn()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Add Option' }));
    fireEvent.click(screen.getByRole('button', { name: 'Add' }));
    // Button name, event value, option name and option type.
    expect(await screen.findAllByText('Required')).toHaveLength(4);
    expect(screen.getByLabelText('Button Name').getAttribute('aria-describedby')).toBe(
      'template-form-event_name-feedback',
    );
  });

  it('shows the fields of each option type', async () => {
    render(<EventTemplateForm template={null} isAdmin onSaved={vi.fn()} />);
    fireEvent.click(screen.getByRole('button', { name: 'Add Option' }));
    const option = screen.getByRole('group', { name: 'Option #1' });
    const type = within(option).getByLabelText('Type');
    const labels = async (value: string) => {
      fireEvent.change(type, { target: { value } });
      await vi.waitFor(() =>
        expect(within(option).queryAllByText(/Value|Options|Selection/).length).toBeGreaterThan(0),
      );
      return within(option)
        .getAllByText(/Value|Options|Selection|Required\?/)
        .map((e) => e.textContent?.replace(' *', ''));
    };
    expect(await labels('static text')).toEqual(['Value']);
    expect(await labels('text')).toEqual(['Default Value', 'Required?']);
    expect(await labels('dropdown')).toEqual(['Dropdown Options', 'Default Selection', 'Required?']);
    expect(await labels('checkboxes')).toEqual(['Checkbox Options', 'Default Selection(s)', 'Required?']);
    expect(await labels('radio buttons')).toEqual(['Radio Button Options', 'Default Selection', 'Required?']);
  });

  it('loads a stored template; only admins get the system, admin-only and disable switches', () => {
    const { unmount } = render(<EventTemplateForm template={stored} isAdmin onSaved={vi.fn()} />);
    expect((screen.getByLabelText('Button Name') as HTMLInputElement).value).toBe('Cruise Status');
    expect((screen.getByLabelText('Template Categories (comma delimited)') as HTMLInputElement).value).toBe('cruise');
    expect((screen.getByLabelText('Only available to admins') as HTMLInputElement).checked).toBe(true);
    expect((screen.getByLabelText('Dropdown Options') as HTMLTextAreaElement).value).toBe(
      'Start of Cruise, End of Cruise',
    );
    unmount();
    render(<EventTemplateForm template={null} isAdmin={false} onSaved={vi.fn()} />);
    expect(screen.queryByLabelText('System template')).toBeNull();
    expect(screen.queryByLabelText('Only available to admins')).toBeNull();
    expect(screen.queryByLabelText('Disable template')).toBeNull();
    expect(screen.getByLabelText('Free text Required?')).toBeTruthy();
  });
});
