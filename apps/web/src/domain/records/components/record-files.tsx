import { useState } from 'react';
import { errorMessage } from '../../../api/client';
import type { RecordKind } from '../../../api/records';
import { ConfirmModal } from '../../../components/confirm-modal';
import { ErrorAlert } from '../../../components/alerts';
import { deleteRecordFile, downloadRecordFile } from '../api/files';

export interface RecordFilesProps {
  kind: RecordKind;
  recordId: string;
  files: readonly string[] | undefined;
  /** "Files:" on the cards; "{Lowering} Files" in the forms. */
  title?: string;
  /** Forms only: a red trash icon after each name, behind the confirm modal. */
  onDeleted?: () => Promise<unknown>;
}

/**
 * The downloadable files of a cruise or lowering (docs/screens.md#downloadable-files): bold title, one
 * indented link per file name, an authenticated blob download under the file's name. Hidden when
 * there are none.
 */
export function RecordFiles({ kind, recordId, files, title = 'Files:', onDeleted }: RecordFilesProps) {
  const [error, setError] = useState('');
  const [deleting, setDeleting] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  if (!files || files.length === 0) return null;

  const download = (name: string) => {
    setError('');
    downloadRecordFile(kind, recordId, name).catch((err: unknown) => setError(errorMessage(err)));
  };

  const confirmDelete = async () => {
    if (!deleting) return;
    setBusy(true);
    setError('');
    try {
      await deleteRecordFile(kind, recordId, deleting);
      await onDeleted?.();
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(false);
      setDeleting(null);
    }
  };

  return (
    <div className="mb-2" data-testid={`${kind}-files`}>
      <div className="fw-bold">{title}</div>
      <ul className="list-unstyled ms-3 mb-0">
        {files.map((name) => (
          <li key={name} className="d-flex align-items-center">
            <button
              type="button"
              className="btn btn-link p-0 text-decoration-none text-break text-start"
              onClick={() => download(name)}
              aria-label={`Download ${name}`}
            >
              {name}
            </button>
            {onDeleted && (
              <button
                type="button"
                className="btn btn-link p-0 ms-2 lh-1 text-danger"
                title="Delete this file"
                aria-label={`Delete ${name}`}
                onClick={() => setDeleting(name)}
              >
                <i className="bi bi-trash-fill" aria-hidden="true" />
              </button>
            )}
          </li>
        ))}
      </ul>
      <ErrorAlert message={error} onClose={() => setError('')} className="mt-2 mb-0" />
      {onDeleted && (
        <ConfirmModal
          show={deleting !== null}
          body="Are you sure you want to delete this file?"
          busy={busy}
          onConfirm={() => void confirmDelete()}
          onHide={() => setDeleting(null)}
        />
      )}
    </div>
  );
}
