import { useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Toast, ToastContainer } from 'react-bootstrap';
import type { NewestCompleteness, WsCompleteness } from '@bathylog/shared';
import { completenessKeys, completenessText, getNewestCompleteness } from '../../api/completeness';
import { useSubscription } from '../../api/use-realtime';
import { LazyEventDetailsModal } from '../../domain/events/components/lazy-event-details-modal';

/** The missing-data warning shows at most once in this many milliseconds (per tab). */
export const warningIntervalMs = 3 * 60_000;
let lastWarningAt = Number.NEGATIVE_INFINITY;

/** Whether a warning may show now; records it when it may. */
export function mayWarn(now: number): boolean {
  if (now - lastWarningAt < warningIntervalMs) return false;
  lastWarningAt = now;
  return true;
}

type Newest = NonNullable<NewestCompleteness['newest']>;

/** A pushed state replaces the shown one when it is about the same or a newer event. */
export function newerOrSame(current: Newest | null | undefined, pushed: WsCompleteness): boolean {
  if (!current) return true;
  return pushed.event_id === current.event_id || Date.parse(pushed.ts) >= Date.parse(current.ts);
}

/**
 * The warning's words: which event (its value and its time, UTC to the second) lacks what, e.g.
 * "FISH at 2023-03-14 23:01:05 UTC was logged without vehicleRealtimeNavData."
 */
export function warningText(w: Pick<WsCompleteness, 'event_value' | 'ts' | 'missing' | 'stale'>): string {
  const lacking = [...w.missing, ...w.stale.map((s) => `fresh ${s}`)].join(', ');
  const at = Number.isNaN(Date.parse(w.ts)) ? w.ts : `${w.ts.slice(0, 10)} ${w.ts.slice(11, 19)} UTC`;
  return `${w.event_value} at ${at} was logged without ${lacking}.`;
}

/**
 * Whether the newest event carries its required aux data (docs/completeness.md#the-footer):
 * "Newest event complete" or "Newest event missing: …", kept live from /ws/status/completeness,
 * with a warning naming the event and its missing sources at most once every three minutes (a click
 * opens the event). Nothing shows while completeness is off (no required sources).
 */
export function FooterCompleteness() {
  const queryClient = useQueryClient();
  const { data } = useQuery({
    queryKey: completenessKeys.newest(),
    queryFn: ({ signal }) => getNewestCompleteness(signal),
    retry: false,
  });
  const [warning, setWarning] = useState<WsCompleteness | null>(null);
  const [opened, setOpened] = useState<string | null>(null);

  useSubscription('completeness', (pushed) => {
    queryClient.setQueryData<NewestCompleteness>(completenessKeys.newest(), (old) => {
      if (!old || !newerOrSame(old.newest, pushed)) return old;
      const { event_id, lowering_id, ts, state, missing, stale, late } = pushed;
      return {
        ...old,
        newest: { event_id, lowering_id, ts, state, missing, stale, ...(late ? { late } : {}) },
      };
    });
    if (pushed.state === 'incomplete' && mayWarn(Date.now())) setWarning(pushed);
  });

  if (!data || data.required_sources.length === 0 || !data.newest) return null;
  const { newest } = data;
  const tone =
    newest.state === 'complete' ? 'text-success' : newest.state === 'pending' ? 'text-light' : 'text-warning';
  return (
    <>
      <span data-testid="footer-completeness" aria-live="polite">
        <span className={tone}>{completenessText(newest)}</span>
      </span>
      <ToastContainer position="bottom-end" className="p-3 mb-4" containerPosition="fixed">
        <Toast
          show={warning !== null}
          onClose={() => setWarning(null)}
          delay={15_000}
          autohide
          bg="warning"
          data-testid="completeness-warning"
        >
          <Toast.Header closeLabel="Close warning">
            <strong className="me-auto">Aux data missing</strong>
          </Toast.Header>
          <Toast.Body className="text-dark">
            {warning && (
              <>
                {warningText(warning)}{' '}
                <Button
                  variant="link"
                  size="sm"
                  className="p-0 align-baseline text-dark"
                  onClick={() => {
                    setOpened(warning.event_id);
                    setWarning(null);
                  }}
                >
                  Open event
                </Button>
              </>
            )}
          </Toast.Body>
        </Toast>
      </ToastContainer>
      {opened && <LazyEventDetailsModal eventId={opened} onHide={() => setOpened(null)} />}
    </>
  );
}
