import { useEffect, useRef, useState } from 'react';
import { Form, ProgressBar } from 'react-bootstrap';
import { maxUploadFiles } from '@bathylog/shared';
import { errorMessage } from '../../../api/client';
import type { RecordKind } from '../../../api/records';
import { revertUpload, uploadRecordFile, type UploadHandle } from '../api/files';

interface Item {
  key: number;
  name: string;
  progress: number;
  uploadId?: string;
  error?: string;
  handle?: UploadHandle;
}

export interface FileUploadProps {
  kind: RecordKind;
  /** The record's database id; null while the record does not exist yet (the area is disabled). */
  recordId: string | null;
  /** The upload ids finished so far: the form sends them on Update. */
  onChange: (uploadIds: string[]) => void;
  /** The area's label, e.g. "Upload Lowering Files". */
  label: string;
}

let nextKey = 0;

/**
 * The upload area of the management forms (docs/screens.md#files-and-uploads): at most 5 files at once, each
 * with its progress; a file refused by the server (e.g. over the size limit) shows the server's
 * message; removing a finished file reverts its upload, and so does unmounting. Mount it with a key that
 * changes after a successful Update or a Reset Values, which clears it.
 */
export function FileUpload({ kind, recordId, onChange, label }: FileUploadProps) {
  const [items, setItems] = useState<Item[]>([]);
  const [note, setNote] = useState('');
  const inputRef = useRef<HTMLInputElement>(null);
  const onChangeRef = useRef(onChange);
  onChangeRef.current = onChange;
  const id = `${kind}-file-upload`;

  const ids = items.flatMap((i) => (i.uploadId ? [i.uploadId] : []));
  const idsKey = ids.join('\n');
  useEffect(() => {
    onChangeRef.current(idsKey ? idsKey.split('\n') : []);
  }, [idsKey]);

  // When the area goes away (form closed, Reset Values, or cleared after an Update saved them),
  // running uploads are cancelled and finished ones reverted, so no temporary file stays behind
  // on the server (reverting one the Update has already moved into the record is a no-op).
  const itemsRef = useRef(items);
  itemsRef.current = items;
  useEffect(
    () => () =>
      itemsRef.current.forEach((i) => {
        i.handle?.abort();
        if (i.uploadId) {
          revertUpload(kind, i.uploadId).catch((err: unknown) => console.warn('Reverting an upload failed:', err));
        }
      }),
    [kind],
  );

  const update = (key: number, patch: Partial<Item>) =>
    setItems((list) => list.map((i) => (i.key === key ? { ...i, ...patch } : i)));

  const start = (files: File[]) => {
    if (!recordId) return;
    setNote('');
    const active = items.filter((i) => !i.error).length;
    const room = Math.max(0, maxUploadFiles - active);
    if (files.length > room) setNote(`At most ${maxUploadFiles} files can be uploaded at once.`);
    const accepted = files.slice(0, room);
    const added: Item[] = accepted.map((file) => {
      const key = nextKey++;
      const handle = uploadRecordFile(kind, recordId, file, (p) => update(key, { progress: p }));
      handle.done.then(
        (uploadId) => update(key, { uploadId, progress: 1, handle: undefined }),
        (err: unknown) => {
          if (err instanceof DOMException && err.name === 'AbortError') return;
          update(key, { error: errorMessage(err), handle: undefined });
        },
      );
      return { key, name: file.name, progress: 0, handle };
    });
    setItems((list) => [...list.filter((i) => !i.error), ...added]);
  };

  const remove = (item: Item) => {
    item.handle?.abort();
    setItems((list) => list.filter((i) => i.key !== item.key));
    if (item.uploadId) {
      revertUpload(kind, item.uploadId).catch((err: unknown) => console.warn('Reverting an upload failed:', err));
    }
  };

  const full = items.filter((i) => !i.error).length >= maxUploadFiles;
  return (
    <Form.Group className="mb-3" controlId={id}>
      <Form.Label className="mb-1">{label}</Form.Label>
      <Form.Control
        ref={inputRef}
        type="file"
        multiple
        size="sm"
        disabled={!recordId || full}
        aria-describedby={`${id}-help`}
        onChange={(e) => {
          const input = e.target as HTMLInputElement;
          start(Array.from(input.files ?? []));
          input.value = '';
        }}
      />
      <Form.Text id={`${id}-help`} className="d-block">
        {recordId
          ? `Up to ${maxUploadFiles} files at once; they are saved with the record on Update.`
          : 'Files can be added once the record exists.'}
      </Form.Text>
      {note && <div className="small text-warning">{note}</div>}
      {items.length > 0 && (
        <ul className="list-unstyled mt-2 mb-0" aria-label="Uploads">
          {items.map((item) => (
            <li key={item.key} className="mb-1 small" data-testid="upload-item">
              <div className="d-flex align-items-center">
                <span className="text-break me-auto">{item.name}</span>
                {item.uploadId && <span className="text-success ms-2">Upload complete</span>}
                <button
                  type="button"
                  className="btn btn-link p-0 ms-2 lh-1 text-danger"
                  aria-label={`Remove ${item.name}`}
                  title="Remove"
                  onClick={() => remove(item)}
                >
                  <i className="bi bi-x-circle-fill" aria-hidden="true" />
                </button>
              </div>
              {item.error ? (
                <div className="text-danger" role="alert">
                  {item.error}
                </div>
              ) : (
                !item.uploadId && (
                  <ProgressBar
                    now={Math.round(item.progress * 100)}
                    label={`${Math.round(item.progress * 100)}%`}
                    aria-label={`Uploading ${item.name}`}
                    style={{ height: 14 }}
                  />
                )
              )}
            </li>
          ))}
        </ul>
      )}
    </Form.Group>
  );
}
