import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen } from '@testing-library/react';
import { useForm } from '../lib/form';
import { Modal } from 'react-bootstrap';
import { FormFields, recordFields, type FieldSpec } from './record-form';
import { ModalFooter } from './modal-parts';

afterEach(cleanup);

interface Values {
  record_id: string;
  record_name: string;
  start_ts: string;
  stop_ts: string;
  record_notes: string;
}

const specs: FieldSpec<Values>[] = [
  recordFields.id<Values>('record_id', 'Record ID', 'i.e. R1'),
  { name: 'record_name', label: 'Record Name', half: true },
  ...recordFields.dates<Values>('Date', 'YYYY-MM-DD'),
  { name: 'record_notes', label: 'Notes', rows: 2 },
];

function Fields({ locked }: { locked: boolean }) {
  const { register, formState } = useForm<Values>();
  return (
    <form>
      <FormFields specs={specs} register={register} errors={formState.errors} idPrefix="rec" locked={locked} />
    </form>
  );
}

describe('FormFields', () => {
  it('pairs consecutive half fields in a row and keeps the others full width, in order', () => {
    const { container } = render(<Fields locked={false} />);
    const rows = [...container.querySelectorAll('.row')].map((row) =>
      [...row.querySelectorAll('input, textarea')].map((el) => el.id),
    );
    expect(rows).toEqual([
      ['rec-record_id', 'rec-record_name'],
      ['rec-start_ts', 'rec-stop_ts'],
    ]);
    expect([...container.querySelectorAll('input, textarea')].map((el) => el.id)).toEqual([
      'rec-record_id',
      'rec-record_name',
      'rec-start_ts',
      'rec-stop_ts',
      'rec-record_notes',
    ]);
    expect(screen.getByLabelText('Start Date (UTC)').getAttribute('placeholder')).toBe('YYYY-MM-DD');
  });

  it('disables only the lockable fields (ID and dates) when locked', () => {
    render(<Fields locked />);
    const disabled = (label: string) => (screen.getByLabelText(label) as HTMLInputElement).disabled;
    expect(disabled('Record ID')).toBe(true);
    expect(disabled('Start Date (UTC)')).toBe(true);
    expect(disabled('Stop Date (UTC)')).toBe(true);
    expect(disabled('Record Name')).toBe(false);
    expect(disabled('Notes')).toBe(false);
  });
});

describe('ModalFooter', () => {
  it('puts leading buttons first, then close, then the action; an action without onClick submits', () => {
    const onClose = vi.fn();
    const onSubmit = vi.fn((e: { preventDefault: () => void }) => e.preventDefault());
    render(
      <Modal show onHide={onClose}>
        <form onSubmit={onSubmit}>
          <ModalFooter
            onClose={onClose}
            closeLabel="Cancel"
            leading={<button type="button">Stop</button>}
            action={{ label: 'Submit' }}
          />
        </form>
      </Modal>,
    );
    const buttons = screen.getAllByRole('button');
    expect(buttons.map((b) => [b.textContent, b.getAttribute('type')])).toEqual([
      ['Stop', 'button'],
      ['Cancel', 'button'],
      ['Submit', 'submit'],
    ]);
    fireEvent.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(onClose).toHaveBeenCalledTimes(1);
    fireEvent.click(screen.getByRole('button', { name: 'Submit' }));
    expect(onSubmit).toHaveBeenCalledTimes(1);
  });

  it('an action with its own onClick is a plain button; busy disables close', () => {
    const onConfirm = vi.fn();
    render(
      <Modal show onHide={vi.fn()}>
        <ModalFooter
          onClose={vi.fn()}
          closeDisabled
          action={{ label: 'Yup!', variant: 'danger', onClick: onConfirm }}
        />
      </Modal>,
    );
    const yup = screen.getByRole('button', { name: 'Yup!' });
    expect(yup.getAttribute('type')).toBe('button');
    expect(yup.className).toContain('btn-danger');
    expect((screen.getByRole('button', { name: 'Close' }) as HTMLButtonElement).disabled).toBe(true);
    fireEvent.click(yup);
    expect(onConfirm).toHaveBeenCalledTimes(1);
  });
});
