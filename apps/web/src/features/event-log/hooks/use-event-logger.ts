import { useCallback, useEffect, useRef, useState } from 'react';
import {
  defaultEventOptions,
  templateNeedsInput,
  type EventOptionsUpdate,
  type EventTemplate,
  type LogEvent,
} from '@bathylog/shared';
import { errorMessage } from '../../../api/client';
import { useAuth } from '../../../lib/auth';
import { eventQueue, queueEventAttachments, queueNewEvent } from '../../../domain/events/api/event-queue';
import { syncServerClock } from '../../../domain/events/api/server-clock';

/** The event the options modal is open for, and the template it came from. */
export interface OpenOptions {
  template: EventTemplate;
  event: LogEvent;
}

/**
 * The console's ways of logging (docs/screens.md#one-click-or-the-options-modal): one click logs at
 * once with default options; a template that needs input creates a bare event first (id and time
 * fixed at the click) and opens the options modal, whose Submit updates that event and whose
 * Cancel, ×, Escape (or leaving the page) deletes it. Every write goes through the durable queue.
 */
export function useEventLogger() {
  const { profile } = useAuth();
  const author = profile?.username;
  const [open, setOpen] = useState<OpenOptions | null>(null);
  const [error, setError] = useState<string | null>(null);
  const openRef = useRef<OpenOptions | null>(null);
  openRef.current = open;

  const run = useCallback(async (action: () => Promise<unknown>) => {
    setError(null);
    try {
      await action();
    } catch (err) {
      // Only storing in the browser can fail here; sending is the queue's business.
      setError(errorMessage(err));
    }
  }, []);

  const logTemplate = useCallback(
    (template: EventTemplate, shiftKey: boolean) =>
      run(async () => {
        if (!templateNeedsInput(template, shiftKey)) {
          await queueNewEvent({
            event_value: template.event_value,
            event_options: defaultEventOptions(template),
            event_free_text: '',
            event_author: author,
          });
          return;
        }
        const event = await queueNewEvent({
          event_value: template.event_value,
          event_options: [],
          event_free_text: '',
          event_author: author,
        });
        setOpen({ template, event });
      }),
    [author, run],
  );

  const logFreeText = useCallback(
    (text: string) =>
      run(() =>
        queueNewEvent({ event_value: 'FREE_FORM', event_options: [], event_free_text: text, event_author: author }),
      ),
    [author, run],
  );

  const submitOptions = useCallback(
    (update: EventOptionsUpdate, pictures: readonly File[] = []) => {
      const current = openRef.current;
      if (!current) return;
      setOpen(null);
      // Pictures queue after the update, so they upload once the event exists on the server.
      void run(async () => {
        await eventQueue.enqueueUpdate(current.event.id, { ...update });
        await queueEventAttachments(current.event.id, pictures);
      });
    },
    [run],
  );

  const cancelOptions = useCallback(() => {
    const current = openRef.current;
    if (!current) return;
    setOpen(null);
    void run(() => eventQueue.enqueueDelete(current.event.id));
  }, [run]);

  // Click times follow the server's clock; check it now and then (laptop clocks drift).
  useEffect(() => {
    void syncServerClock();
    const timer = setInterval(() => void syncServerClock(), 10 * 60_000);
    return () => clearInterval(timer);
  }, []);

  // Leaving the console with the modal open is a cancel too: the bare event must not linger.
  useEffect(
    () => () => {
      const current = openRef.current;
      if (current) void eventQueue.enqueueDelete(current.event.id);
    },
    [],
  );

  return { open, error, clearError: () => setError(null), logTemplate, logFreeText, submitOptions, cancelOptions };
}
