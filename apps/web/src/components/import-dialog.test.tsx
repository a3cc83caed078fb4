import { afterEach, describe, expect, it, vi } from 'vitest';
import { cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { ApiError } from '../api/client';
import { ImportDialog, type ImportOutcome } from './import-dialog';

function jsonFile(records: unknown, name = 'records.json') {
  return new File([JSON.stringify(records)], name, { type: 'application/json' });
}

afterEach(cleanup);

const text = (testId: string) => screen.getByTestId(testId).textContent;

describe('ImportDialog', () => {
  it('imports records one at a time with live counts, an error log and Complete', async () => {
    const seen: string[] = [];
    const importRecord = vi.fn(async (r: { id: string; kind: string }): Promise<ImportOutcome> => {
      seen.push(r.id);
      if (r.kind === 'dup') return 'skipped';
      if (r.kind === 'bad') throw new ApiError(400, '"username" is not allowed to be empty');
      return 'imported';
    });
    const onFinished = vi.fn();
    render(
      <ImportDialog show title="Import Users" onHide={() => {}} importRecord={importRecord} onFinished={onFinished} />,
    );

    const records = [
      { id: 'a1', kind: 'ok' },
      { id: 'a2', kind: 'dup' },
      { id: 'a3', kind: 'bad' },
      { id: 'a4', kind: 'ok' },
    ];
    fireEvent.change(screen.getByTestId('import-file-input'), { target: { files: [jsonFile(records)] } });

    await waitFor(() => expect(text('import-pending')).toBe('Complete'));
    expect(seen).toEqual(['a1', 'a2', 'a3', 'a4']);
    expect(text('import-imported')).toBe('2');
    expect(text('import-skipped')).toBe('1');
    expect(text('import-errors')).toBe('1');
    expect(text('import-log')).toBe('a3: "username" is not allowed to be empty');
    expect(onFinished).toHaveBeenCalledWith({ pending: 0, imported: 2, updated: 0, skipped: 1, errors: 1 }, 'complete');
  });

  it('stops after the current record and says Quit Early!', async () => {
    let release: () => void = () => {};
    const importRecord = vi.fn(
      () =>
        new Promise<ImportOutcome>((resolve) => {
          release = () => resolve('imported');
        }),
    );
    const onFinished = vi.fn();
    render(<ImportDialog show title="Import" onHide={() => {}} importRecord={importRecord} onFinished={onFinished} />);
    fireEvent.change(screen.getByTestId('import-file-input'), {
      target: { files: [jsonFile([{ id: '1' }, { id: '2' }, { id: '3' }])] },
    });
    await waitFor(() => expect(importRecord).toHaveBeenCalledTimes(1));
    fireEvent.click(screen.getByRole('button', { name: 'Stop' }));
    release();
    await waitFor(() => expect(text('import-pending')).toBe('Quit Early!'));
    expect(importRecord).toHaveBeenCalledTimes(1);
    expect(onFinished).toHaveBeenCalledWith(expect.objectContaining({ imported: 1, pending: 2 }), 'quit');
  });

  it('refuses files that are not .json', async () => {
    const importRecord = vi.fn(async (): Promise<ImportOutcome> => 'imported');
    render(<ImportDialog show title="Import" onHide={() => {}} importRecord={importRecord} />);
    fireEvent.change(screen.getByTestId('import-file-input'), {
      target: { files: [new File(['[]'], 'users.csv', { type: 'text/csv' })] },
    });
    await waitFor(() => expect(screen.getByText('Import files must be .json')).toBeTruthy());
    expect(importRecord).not.toHaveBeenCalled();
  });
  it('waits out a 429 and sends the same record again: nothing is lost to a rate limit', async () => {
    let refusals = 2;
    const stored: string[] = [];
    const importRecord = vi.fn(async (r: { id: string }): Promise<ImportOutcome> => {
      if (r.id === 'b' && refusals > 0) {
        refusals -= 1;
        throw new ApiError(429, 'Too many requests, try again in 1 second', 0);
      }
      stored.push(r.id);
      return 'imported';
    });
    render(<ImportDialog show title="Import" onHide={() => {}} importRecord={importRecord} />);
    fireEvent.change(screen.getByTestId('import-file-input'), {
      target: { files: [jsonFile([{ id: 'a' }, { id: 'b' }, { id: 'c' }])] },
    });
    await waitFor(() => expect(text('import-pending')).toBe('Complete'));
    expect(stored).toEqual(['a', 'b', 'c']);
    expect(text('import-imported')).toBe('3');
    expect(text('import-errors')).toBe('0');
    expect(screen.queryByTestId('import-log')).toBeNull();
  });

  it('a file that is not JSON: a message in the dialog and the same line in the console', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    const importRecord = vi.fn(async (): Promise<ImportOutcome> => 'imported');
    render(<ImportDialog show title="Import" onHide={() => {}} importRecord={importRecord} />);
    fireEvent.change(screen.getByTestId('import-file-input'), {
      target: { files: [new File(['[{"id": "1"'], 'broken.json', { type: 'application/json' })] },
    });
    const alert = await screen.findByRole('alert');
    expect(alert.textContent).toContain('broken.json is not valid JSON:');
    expect(logged).toHaveBeenCalledTimes(1);
    expect(String(logged.mock.calls[0]![0])).toBe(alert.textContent);
    expect(importRecord).not.toHaveBeenCalled();
    logged.mockRestore();
  });
});
