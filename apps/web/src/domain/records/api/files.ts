import { isErrorBody } from '@bathylog/shared';
import { ApiError, networkErrorMessage, request, serverRoot } from '../../../api/client';
import type { RecordKind } from '../../../api/records';
import { currentToken } from '../../../lib/session';
import { saveBlob } from '../../../lib/download';

/**
 * Cruise and lowering files (docs/screens.md#files-and-uploads): authenticated binary downloads,
 * deletes, and FilePond-style uploads (process → upload id; revert), whose ids the form's Update
 * then sends so the server moves the files into the record's folder.
 */
const filesBase = `${serverRoot}/files`;

/** The Authorization header of a session kept in memory; a cookie session sends none. */
function bearer(): Record<string, string> {
  const token = currentToken();
  return token ? { Authorization: `Bearer ${token}` } : {};
}

function filePath(kind: RecordKind, recordId: string, name: string): string {
  return `${kind}s/${recordId}/${encodeURIComponent(name)}`;
}

/** GETs a file as a blob (never parsed: PDFs and images stay intact) and saves it under its name. */
export async function downloadRecordFile(kind: RecordKind, recordId: string, name: string): Promise<void> {
  const blob = await request<Blob>(filePath(kind, recordId, name), { base: filesBase, responseType: 'blob' });
  saveBlob(blob, name);
}

export async function deleteRecordFile(kind: RecordKind, recordId: string, name: string): Promise<void> {
  await request(filePath(kind, recordId, name), { base: filesBase, method: 'DELETE' });
}

function xhrError(xhr: XMLHttpRequest): ApiError {
  let message = xhr.statusText || `Request failed with status ${xhr.status}`;
  try {
    const body: unknown = JSON.parse(xhr.responseText);
    if (isErrorBody(body)) message = body.message;
  } catch {
    // Not JSON: keep the status text.
  }
  return new ApiError(xhr.status, message);
}

export interface UploadHandle {
  /** Resolves with the server's upload id. */
  done: Promise<string>;
  abort: () => void;
}

/**
 * Uploads one file to `files/{kind}s/filepond/process/{record id}` (multipart, field `filepond`),
 * reporting progress as a fraction 0-1. XHR rather than fetch: fetch reports no upload progress.
 */
export function uploadRecordFile(
  kind: RecordKind,
  recordId: string,
  file: File,
  onProgress: (fraction: number) => void,
): UploadHandle {
  const xhr = new XMLHttpRequest();
  const done = new Promise<string>((resolve, reject) => {
    xhr.open('POST', `${filesBase}/${kind}s/filepond/process/${recordId}`);
    const token = currentToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable && e.total > 0) onProgress(e.loaded / e.total);
    };
    xhr.onload = () => {
      if (xhr.status >= 200 && xhr.status < 300) resolve(xhr.responseText.trim());
      else reject(xhrError(xhr));
    };
    xhr.onerror = () => reject(new ApiError(0, networkErrorMessage));
    xhr.onabort = () => reject(new DOMException('Upload cancelled', 'AbortError'));
    const form = new FormData();
    form.append('filepond', file, file.name);
    xhr.send(form);
  });
  return { done, abort: () => xhr.abort() };
}

/** Removes a just-uploaded file that was not saved with the record. */
export async function revertUpload(kind: RecordKind, uploadId: string): Promise<void> {
  const res = await fetch(`${filesBase}/${kind}s/filepond/revert`, {
    method: 'DELETE',
    headers: { ...bearer(), 'Content-Type': 'text/plain' },
    body: uploadId,
    // Sent even when the page is being left (a form closed by navigating away).
    keepalive: true,
  });
  if (!res.ok && res.status !== 404) throw new ApiError(res.status, res.statusText);
}
