import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, within } from '@testing-library/react';
import { clientSettingsSchema, type User } from '@bathylog/shared';
import { SettingsProvider } from '../../lib/settings';
import { UserForm } from './user-form';

afterEach(() => {
  cleanup();
  vi.unstubAllGlobals();
});

const settings = clientSettingsSchema.parse({ customCruiseName: ['expedition', 'expeditions'] });

const stored: User = {
  id: '667d44a536139e84fe945c20',
  username: 'science',
  fullname: 'Scientist',
  email: 'science@example.org',
  last_login: '2024-01-01T00:00:00.000Z',
  roles: ['event_logger'],
  system_user: false,
  disabled: false,
};

function renderForm(props: Partial<Parameters<typeof UserForm>[0]> = {}) {
  return render(
    <SettingsProvider settings={settings}>
      <UserForm user={null} viewer={{ id: 'me', roles: ['admin'] }} onSaved={vi.fn()} {...props} />
    </SettingsProvider>,
  );
}

const roleBoxes = () =>
  screen.getAllByRole('checkbox').filter((b) => b.getAttribute('type') === 'checkbox' && !b.getAttribute('role'));

describe('UserForm', () => {
  it('shows the form messages for a blank form and sends nothing', async () => {
    const onSaved = vi.fn();
    renderForm({ onSaved });
    fireEvent.click(screen.getByRole('button', { name: 'Create' }));
    expect(await screen.findAllByText('Required')).toHaveLength(3);
    expect(screen.getByText('Must select at least one role')).toBeTruthy();
    expect(onSaved).not.toHaveBeenCalled();
  });

  it('offers an admin every role with its description, and the admin switches', () => {
    renderForm();
    const form = screen.getByRole('form', { name: 'Add User' });
    expect(within(form).getByLabelText('Expedition Manager')).toBeTruthy();
    expect(within(form).getByLabelText('Admin')).toBeTruthy();
    expect(within(form).getByLabelText('System User')).toBeTruthy();
    expect(within(form).getByLabelText('User Disabled')).toBeTruthy();
    expect((within(form).getByLabelText('Email') as HTMLInputElement).readOnly).toBe(false);
  });

  it('offers a cruise manager only non-admin roles and no admin switches', () => {
    renderForm({ viewer: { id: 'me', roles: ['cruise_manager'] } });
    expect(roleBoxes().map((b) => (b as HTMLInputElement).value)).toEqual([
      'cruise_manager',
      'template_manager',
      'event_manager',
      'event_logger',
      'power_logger',
      'aux_data_inserter',
      'event_watcher',
      'guest',
    ]);
    // The Sealog 2.4 and WHOI roles, with their descriptions.
    expect(screen.getByLabelText('Power Logger')).toBeTruthy();
    expect(screen.getByLabelText('Guest')).toBeTruthy();
    expect(screen.queryByLabelText('System User')).toBeNull();
    expect(screen.queryByLabelText('User Disabled')).toBeNull();
  });

  it('edits a stored user: email read-only, roles ticked, no disable switch on the own account', () => {
    renderForm({ user: stored, viewer: { id: stored.id, roles: ['admin'] } });
    const form = screen.getByRole('form', { name: 'Update User' });
    expect((within(form).getByLabelText('Username') as HTMLInputElement).value).toBe('science');
    expect((within(form).getByLabelText('Email') as HTMLInputElement).readOnly).toBe(true);
    expect((within(form).getByLabelText('Event Logger') as HTMLInputElement).checked).toBe(true);
    expect(within(form).queryByLabelText('User Disabled')).toBeNull();
    expect(within(form).getByLabelText('System User')).toBeTruthy();
    // Nothing changed yet: Update and Reset Values wait.
    expect((within(form).getByRole('button', { name: 'Update' }) as HTMLButtonElement).disabled).toBe(true);
    expect((within(form).getByRole('button', { name: 'Reset Values' }) as HTMLButtonElement).disabled).toBe(true);
  });

  it('reports when the create form stops being blank', async () => {
    const onBlankChange = vi.fn();
    renderForm({ onBlankChange });
    expect(onBlankChange).toHaveBeenLastCalledWith(true);
    // Typing fires `input`, which onChange follows on React and on Preact's compat layer alike.
    fireEvent.input(screen.getByLabelText('Full Name'), { target: { value: 'Someone' } });
    await vi.waitFor(() => expect(onBlankChange).toHaveBeenLastCalledWith(false));
  });

  it('clears the last "User updated" when a later attempt fails the form\'s own checks', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => new Response(null, { status: 204 })),
    );
    renderForm({ user: stored, viewer: { id: 'me', roles: ['admin'] } });
    fireEvent.input(screen.getByLabelText('Full Name'), { target: { value: 'Scientist Two' } });
    fireEvent.click(await screen.findByRole('button', { name: 'Update' }));
    expect((await screen.findByRole('status')).textContent).toContain('User updated');
    // A too-short password: the form refuses it before anything is sent.
    fireEvent.input(screen.getByLabelText('Password', { exact: true }), { target: { value: 'abc' } });
    fireEvent.input(screen.getByLabelText('Confirm Password'), { target: { value: 'abc' } });
    fireEvent.click(await screen.findByRole('button', { name: 'Update' }));
    await vi.waitFor(() => expect(screen.queryByRole('status')).toBeNull());
    expect(screen.queryByText(/User updated/)).toBeNull();
  });
});
