import { useEffect, useRef, useState } from 'react';
import { Button, Modal } from 'react-bootstrap';
import { ModalFooter, ModalHeader } from './modal-parts';
import { errorMessage } from '../api/client';
import { withRetry } from './import-retry';

/** What importing one record did. Throw (an ApiError) for an error. */
export type ImportOutcome = 'imported' | 'skipped' | 'updated';

export interface ImportCounts {
  pending: number;
  imported: number;
  updated: number;
  skipped: number;
  errors: number;
}

export type ImportStatus = 'idle' | 'running' | 'complete' | 'quit';

export interface ImportDialogProps<T> {
  show: boolean;
  /** e.g. "Import Users". */
  title: string;
  /** Close button, × and Escape. Closing while records are processed stops the import (Quit Early!). */
  onHide: () => void;
  /** Inserts one record and says what happened; a thrown error is counted and logged with the record id. */
  importRecord: (record: T) => Promise<ImportOutcome>;
  /** Turns the parsed file into records. Default: an array as is, a single object as a list of one. */
  toRecords?: (json: unknown) => T[];
  /** The id shown in the error log. Default: `record.id`, else "unknown". */
  recordId?: (record: T) => string | undefined;
  /** Called once when processing ends (Complete or Quit Early!): refetch lists here. */
  onFinished?: (counts: ImportCounts, status: 'complete' | 'quit') => void;
  /** Show an "Updated" counter (aux-data import counts 2xx other than 201 as updated). */
  showUpdated?: boolean;
}

const emptyCounts: ImportCounts = { pending: 0, imported: 0, updated: 0, skipped: 0, errors: 0 };

function defaultRecords<T>(json: unknown): T[] {
  if (Array.isArray(json)) return json as T[];
  if (json && typeof json === 'object') return [json as T];
  return [];
}

function defaultId(record: unknown): string | undefined {
  const id = (record as { id?: unknown } | null)?.id;
  return typeof id === 'string' && id ? id : undefined;
}

/**
 * One import dialog for users, templates, events, aux data, cruises and lowerings
 * (docs/screens.md#import-dialogs): a .json file, records processed one at a time, live counts, an
 * error log, and a final status of "Complete" or "Quit Early!".
 */
export function ImportDialog<T>({
  show,
  title,
  onHide,
  importRecord,
  toRecords = defaultRecords,
  recordId = defaultId,
  onFinished,
  showUpdated = false,
}: ImportDialogProps<T>) {
  const [counts, setCounts] = useState<ImportCounts>(emptyCounts);
  const [status, setStatus] = useState<ImportStatus>('idle');
  const [log, setLog] = useState<string[]>([]);
  const [fileName, setFileName] = useState('');
  const [fileError, setFileError] = useState('');
  /** Seconds the import waits before sending the current record again (the server asked it to). */
  const [waiting, setWaiting] = useState(0);
  const stopRef = useRef(false);
  const inputRef = useRef<HTMLInputElement>(null);

  // A fresh dialog each time it opens; closing stops a running import.
  useEffect(() => {
    if (show) {
      stopRef.current = false;
      setCounts(emptyCounts);
      setStatus('idle');
      setLog([]);
      setFileName('');
      setFileError('');
    } else {
      stopRef.current = true;
    }
  }, [show]);

  async function run(records: T[]) {
    stopRef.current = false;
    setStatus('running');
    const tally: ImportCounts = { ...emptyCounts, pending: records.length };
    setCounts({ ...tally });
    let quit = false;
    for (const record of records) {
      if (stopRef.current) {
        quit = true;
        break;
      }
      try {
        // One record at a time; a "too many requests" or "busy" answer is waited out and the same
        // record sent again, so a server's limits slow the import down but lose nothing.
        const outcome = await withRetry(() => importRecord(record), {
          stopped: () => stopRef.current,
          onWait: (ms) => setWaiting(Math.ceil(ms / 1000)),
        });
        setWaiting(0);
        tally[outcome] += 1;
      } catch (err) {
        setWaiting(0);
        tally.errors += 1;
        const line = `${recordId(record) ?? 'unknown'}: ${errorMessage(err)}`;
        setLog((prev) => [...prev, line]);
      }
      tally.pending -= 1;
      setCounts({ ...tally });
    }
    const final = quit ? 'quit' : 'complete';
    setStatus(final);
    onFinished?.({ ...tally }, final);
  }

  async function onFile(file: File | undefined) {
    if (!file) return;
    setFileName(file.name);
    setFileError('');
    if (!file.name.toLowerCase().endsWith('.json')) {
      setFileError('Import files must be .json');
      return;
    }
    let json: unknown;
    try {
      json = JSON.parse(await file.text());
    } catch (err) {
      // Said in the dialog, with the parser's words (they name the position): a file that silently
      // does nothing looks like an import that worked. The same line goes to the console, where an
      // admin scripting imports or reading a bug report looks.
      const problem = `${file.name} is not valid JSON: ${err instanceof Error ? err.message : String(err)}`;
      console.error(problem);
      setFileError(problem);
      return;
    }
    const records = toRecords(json);
    if (records.length === 0) {
      setFileError(`${file.name} holds no records to import.`);
      return;
    }
    await run(records);
  }

  function stop() {
    stopRef.current = true;
  }

  const pendingText = status === 'complete' ? 'Complete' : status === 'quit' ? 'Quit Early!' : String(counts.pending);
  const running = status === 'running';

  return (
    <Modal
      show={show}
      onHide={onHide}
      centered
      backdrop={running ? 'static' : true}
      aria-labelledby="import-dialog-title"
    >
      <ModalHeader id="import-dialog-title">{title}</ModalHeader>
      <Modal.Body>
        <div className="d-flex align-items-center gap-2 mb-3">
          <Button variant="primary" size="sm" onClick={() => inputRef.current?.click()} disabled={running}>
            Select File
          </Button>
          <span className="text-secondary small">{fileName || 'A .json file'}</span>
          <input
            ref={inputRef}
            type="file"
            accept=".json,application/json"
            hidden
            data-testid="import-file-input"
            aria-label="Import file"
            onChange={(e) => {
              void onFile(e.target.files?.[0]);
              e.target.value = '';
            }}
          />
        </div>
        {fileError && (
          <div className="text-danger small mb-2" role="alert" data-testid="import-file-error">
            {fileError}
          </div>
        )}
        {running && waiting > 0 && (
          <div className="text-warning small mb-2" data-testid="import-waiting">
            The server is busy: sending again in {waiting} s
          </div>
        )}
        <dl className="row mb-0 small" aria-label="Import progress">
          <dt className="col-4">Pending:</dt>
          <dd className="col-8 mb-1" data-testid="import-pending">
            {pendingText}
          </dd>
          <dt className="col-4">Imported:</dt>
          <dd className="col-8 mb-1" data-testid="import-imported">
            {counts.imported}
          </dd>
          {showUpdated && (
            <>
              <dt className="col-4">Updated:</dt>
              <dd className="col-8 mb-1" data-testid="import-updated">
                {counts.updated}
              </dd>
            </>
          )}
          <dt className="col-4">Skipped:</dt>
          <dd className="col-8 mb-1" data-testid="import-skipped">
            {counts.skipped}
          </dd>
          <dt className="col-4">Errors:</dt>
          <dd className="col-8 mb-1" data-testid="import-errors">
            {counts.errors}
          </dd>
        </dl>
        {log.length > 0 && (
          <div className="mt-2">
            <div className="small fw-bold">Error log:</div>
            <pre
              className="small bg-dark border rounded p-2 mb-0"
              style={{ maxHeight: 200, overflowY: 'auto', whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}
              data-testid="import-log"
            >
              {log.join('\n')}
            </pre>
          </div>
        )}
      </Modal.Body>
      <ModalFooter
        onClose={onHide}
        leading={
          running && (
            <Button variant="warning" size="sm" onClick={stop}>
              Stop
            </Button>
          )
        }
      />
    </Modal>
  );
}
