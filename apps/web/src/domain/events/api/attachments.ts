import { useMutation, useQueryClient } from '@tanstack/react-query';
import { eventAttachmentsDataSource, maxEventAttachments } from '@bathylog/shared';
import { ApiError, networkErrorMessage, readError, serverRoot } from '../../../api/client';
import { currentToken } from '../../../lib/session';
import { eventKeys, type ExportedEvent } from './events';

/** The picture types an event takes (Sealog 2.4 event attachments). */
export const attachmentTypes = ['image/png', 'image/jpeg'] as const;

/** What a refused picture is told, before anything is queued. */
export const attachmentMessages = {
  type: 'Only PNG and JPEG pictures can be attached',
  count: `An event holds at most ${maxEventAttachments} pictures`,
} as const;

const filepond = `${serverRoot}/files/images/filepond`;

async function send(url: string, init: RequestInit): Promise<Response> {
  const token = currentToken();
  const headers = new Headers(init.headers);
  if (token) headers.set('Authorization', `Bearer ${token}`);
  let res: Response;
  try {
    res = await fetch(url, { ...init, headers, credentials: 'same-origin' });
  } catch {
    throw new ApiError(0, networkErrorMessage);
  }
  if (!res.ok) throw await readError(res);
  return res;
}

/** Uploads one picture to an event (FilePond's process route); answers the stored file name. */
export async function uploadEventAttachment(eventId: string, file: Blob, fileName: string): Promise<string> {
  const form = new FormData();
  form.append('filepond', file, fileName);
  const res = await send(`${filepond}/process/${encodeURIComponent(eventId)}`, { method: 'POST', body: form });
  return (await res.text()).trim();
}

/** Removes a picture from its event: the file and its entry in the event's aux data. */
export async function removeEventAttachment(storedName: string): Promise<void> {
  await send(`${filepond}/revert`, {
    method: 'DELETE',
    headers: { 'Content-Type': 'text/plain' },
    body: storedName,
  });
}

/** The first reason these pictures cannot be attached (beside `attached` ones already there), or null. */
export function checkAttachments(files: readonly File[], attached = 0): string | null {
  if (files.some((f) => !(attachmentTypes as readonly string[]).includes(f.type))) return attachmentMessages.type;
  if (files.length + attached > maxEventAttachments) return attachmentMessages.count;
  return null;
}

/** Removes an attached picture, then refreshes the events (their aux data lists the pictures). */
export function useRemoveAttachment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (storedName: string) => removeEventAttachment(storedName),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: eventKeys.all }),
  });
}

/** The stored names of an event's attached pictures, in order. */
export function attachedPictureNames(event: Pick<ExportedEvent, 'aux_data'>): string[] {
  return event.aux_data
    .filter((a) => a.data_source === eventAttachmentsDataSource)
    .flatMap((a) => a.data_array.filter((i) => i.data_name === 'filename').map((i) => String(i.data_value)));
}
