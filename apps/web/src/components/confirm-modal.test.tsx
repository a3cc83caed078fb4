import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { ConfirmModal } from './confirm-modal';

afterEach(cleanup);

describe('ConfirmModal', () => {
  it('shows the wording users know and confirms with Yup!', () => {
    const onConfirm = vi.fn();
    render(
      <ConfirmModal show body="Are you sure you want to delete this user?" onConfirm={onConfirm} onHide={() => {}} />,
    );
    expect(screen.getByText('Confirm Deletion')).toBeTruthy();
    expect(screen.getByText('Are you sure you want to delete this user?')).toBeTruthy();
    fireEvent.click(screen.getByRole('button', { name: 'Yup!' }));
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });

  it('Cancel and Escape close it without confirming', () => {
    const onConfirm = vi.fn();
    const onHide = vi.fn();
    render(<ConfirmModal show title="Confirm Wipe" body="Sure?" onConfirm={onConfirm} onHide={onHide} />);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    fireEvent.keyDown(screen.getByRole('dialog'), { key: 'Escape', code: 'Escape', keyCode: 27 });
    expect(onHide).toHaveBeenCalledTimes(2);
    expect(onConfirm).not.toHaveBeenCalled();
  });
});
