import { useEffect, useMemo, useSyncExternalStore } from 'react';
import { messages, newObjectId, type EventOption, type LogEvent } from '@bathylog/shared';
import { isApiError } from '../../../api/client';
import { readSession } from '../../../lib/session';
import { OfflineQueue, type QueuedOp, type SendResult } from '../../../lib/offline-queue';
import { createQueueStorage } from '../../../lib/offline-queue-idb';
import { uploadEventAttachment } from './attachments';
import { createEvent, deleteEvent, updateEvent } from './events';
import { serverNow } from './server-clock';

/**
 * The console's writes go through the durable queue (lib/offline-queue.ts): each event gets its
 * id and timestamp here, at the moment of the click, is stored in the browser, and is sent when
 * the server can be reached. A resend of an event that already arrived is answered
 * 'duplicate event ID', which counts as sent: nothing is ever logged twice.
 */

/** How one queued write is sent, and what each answer means for the queue. */
export async function sendQueuedEvent(op: QueuedOp): Promise<SendResult> {
  // Logged out: keep everything until someone logs in again.
  if (!readSession()) return { status: 'retry', message: 'Not logged in' };
  try {
    if (op.kind === 'create') {
      // Live logging, however late the link lets it arrive: other consoles and the scripts on
      // newEvents get it too (docs/wire.md#live-or-imported). Set at send time, so events queued
      // by an earlier version of the client are marked as well.
      const response = await createEvent({ ...(op.body as object), id: op.eventId, publish: true } as Parameters<
        typeof createEvent
      >[0]);
      return { status: 'sent', response };
    }
    if (op.kind === 'update') {
      await updateEvent(op.eventId, op.body as Parameters<typeof updateEvent>[1]);
      return { status: 'sent' };
    }
    if (op.kind === 'attach') {
      const { file, fileName } = op.body as { file: Blob; fileName: string };
      const stored = await uploadEventAttachment(op.eventId, file, fileName);
      return { status: 'sent', response: stored };
    }
    await deleteEvent(op.eventId);
    return { status: 'sent' };
  } catch (err) {
    if (!isApiError(err)) return { status: 'retry', message: err instanceof Error ? err.message : String(err) };
    const { statusCode, message } = err;
    // It arrived earlier (the answer to that send was lost): done.
    if (op.kind === 'create' && statusCode === 400 && message === messages.duplicateEvent) return { status: 'sent' };
    // Already gone: what the delete wanted.
    if (op.kind === 'delete' && statusCode === 404) return { status: 'sent' };
    // No link, server down or busy, session expired (a new login resumes): try again later.
    if (statusCode === 0 || statusCode >= 500 || statusCode === 401 || statusCode === 408 || statusCode === 429) {
      return { status: 'retry', message };
    }
    return { status: 'failed', message };
  }
}

export const eventQueue = new OfflineQueue(createQueueStorage(), sendQueuedEvent);

export interface NewEventInput {
  event_value: string;
  event_options: EventOption[];
  event_free_text: string;
  /** The logged-in user's name, stored with the event so a later resend keeps the author. */
  event_author?: string;
}

/**
 * Logs an event: id and ts are made now, on this machine (by the server's clock as last measured,
 * see server-clock.ts), and the event is stored before anything is sent. Resolves with the event
 * as it will be on the server, once it is stored.
 */
export async function queueNewEvent(input: NewEventInput, now = serverNow()): Promise<LogEvent> {
  const event: LogEvent = {
    id: newObjectId(now),
    ts: now.toISOString(),
    event_author: input.event_author ?? '',
    event_value: input.event_value,
    event_options: input.event_options,
    event_free_text: input.event_free_text,
  };
  const body: Record<string, unknown> = {
    ts: event.ts,
    event_value: event.event_value,
    event_options: event.event_options,
    event_free_text: event.event_free_text,
  };
  if (input.event_author) body.event_author = input.event_author;
  await eventQueue.enqueueCreate(event.id, body);
  return event;
}

/**
 * Queues pictures for an event (Sealog 2.4 attachments): each is stored in the browser now and
 * uploaded after the event's earlier writes (its create first), so it works while the link is down.
 */
export async function queueEventAttachments(eventId: string, files: readonly File[]): Promise<void> {
  for (const file of files) await eventQueue.enqueueAttach(eventId, { file, fileName: file.name });
}

/** The event a queued create will make (for showing it as pending), or null for other writes. */
export function queuedEvent(op: QueuedOp): LogEvent | null {
  if (op.kind !== 'create' || !op.body) return null;
  const body = op.body as Partial<LogEvent>;
  return {
    id: op.eventId,
    ts: body.ts ?? new Date(op.queuedAt).toISOString(),
    event_author: body.event_author ?? '',
    event_value: body.event_value ?? '',
    event_options: body.event_options ?? [],
    event_free_text: body.event_free_text ?? '',
  };
}

/** Every queued write, oldest first; starts the queue. */
export function useQueuedOps(): readonly QueuedOp[] {
  useEffect(() => {
    void eventQueue.start();
  }, []);
  return useSyncExternalStore(eventQueue.subscribe, eventQueue.getSnapshot, eventQueue.getSnapshot);
}

/** How many events are waiting to be sent, and how many the server refused. */
export function usePendingEventCounts(): { waiting: number; failed: number } {
  const ops = useQueuedOps();
  return useMemo(() => {
    const waiting = new Set<string>();
    const failed = new Set<string>();
    for (const op of ops) (op.failed ? failed : waiting).add(op.eventId);
    return { waiting: waiting.size, failed: failed.size };
  }, [ops]);
}
