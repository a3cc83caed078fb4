import { useEffect, useMemo, useRef, useState } from 'react';
import { Alert, Button, Card, Form, ListGroup } from 'react-bootstrap';
import { useQueryClient } from '@tanstack/react-query';
import { splitFilterTerms, type LogEvent, type WsEvent } from '@bathylog/shared';
import { errorMessage, type ApiError } from '../../../api/client';
import { useRealtime, useSubscription } from '../../../api/use-realtime';
import { ErrorAlert } from '../../../components/alerts';
import { EmptyText, LoadingText, statusTexts } from '../../../components/status-text';
import { eventQueue, useQueuedOps } from '../../../domain/events/api/event-queue';
import { eventKeys, useEvents, type EventQuery } from '../../../domain/events/api/events';
import { CommentModal } from '../../../domain/events/components/comment-modal';
import { EventDetailsModal } from '../../../domain/events/components/event-details-modal';
import { EventLine } from '../../../domain/events/components/event-line';
import { VideoAtEvent } from '../../../domain/video/video-at-event';
import { useDebouncedValue } from '../hooks/use-debounced-value';
import { historyRows } from '../lib/history-rows';
import { NewestEventCard } from './newest-event-card';

/** Console history page size (docs/screens.md#page-sizes). */
export const historyPageSize = 20;
/** Filter typing settles for this long before the list is asked again (docs/screens.md#event-history). */
export const historySearchDebounceMs = 500;

const asnapTerm = '!ASNAP';
/** How long a delivered event is shown before the server lists it, at most. */
const recentHoldMs = 30_000;

export interface EventHistoryProps {
  /** The first time a non-admin may see (docs/screens.md#who-sees-which-events); undefined = everything. */
  startTS: string | undefined;
  /** Loggers get the comment icon; watchers do not. */
  canComment: boolean;
}

/**
 * The newest-event card and the Event History card (docs/screens.md#event-history): 20 per page,
 * Newest / Newer / Older, Hide ASNAP (on by default, off while a filter is typed), a debounced
 * filter, expand / compress and show / hide; live from the event channels. Events this browser
 * has not delivered yet are listed as pending.
 */
export function EventHistory({ startTS, canComment }: EventHistoryProps) {
  const queryClient = useQueryClient();
  const realtime = useRealtime();
  const [page, setPage] = useState(0);
  const [hideAsnap, setHideAsnap] = useState(true);
  const [filterText, setFilterText] = useState('');
  const [expanded, setExpanded] = useState(false);
  const [showHistory, setShowHistory] = useState(true);
  const [showNewest, setShowNewest] = useState(true);
  const [detailsId, setDetailsId] = useState<string | null>(null);
  const [commentFor, setCommentFor] = useState<LogEvent | null>(null);
  const [recentlySent, setRecentlySent] = useState<Array<{ event: LogEvent; at: number }>>([]);

  const filter = useDebouncedValue(filterText, historySearchDebounceMs);
  const terms = useMemo(() => splitFilterTerms([filter]), [filter]);
  // A typed filter replaces the !ASNAP term (docs/screens.md#event-history).
  const fulltext = terms.length > 0 ? terms : hideAsnap ? [asnapTerm] : undefined;

  useEffect(() => setPage(0), [filter, hideAsnap, startTS]);

  const listQuery: EventQuery = {
    sort: 'newest',
    offset: page * historyPageSize,
    limit: historyPageSize,
    fulltext,
    startTS,
  };
  const newestQuery: EventQuery = { sort: 'newest', limit: 1, fulltext: hideAsnap ? [asnapTerm] : undefined, startTS };
  const list = useEvents(listQuery);
  const newest = useEvents(newestQuery, { enabled: showNewest });
  const ops = useQueuedOps();

  const serverEvents = useMemo(() => list.data ?? [], [list.data]);
  // Events this browser just delivered stay listed until the server's list has them: a refetch
  // may come back before the server's clock reaches their time (lists end at the server's now).
  // With a filter typed or ASNAP hidden they may never come, so the next answer settles it then.
  const unconfirmed = useMemo(() => {
    const onServer = new Set(serverEvents.map((e) => e.id));
    return recentlySent.filter((r) => {
      if (onServer.has(r.event.id)) return false;
      if (terms.length > 0 || (hideAsnap && /asnap/i.test(r.event.event_value))) return r.at >= list.dataUpdatedAt;
      return Date.now() - r.at < recentHoldMs;
    });
  }, [recentlySent, serverEvents, terms, hideAsnap, list.dataUpdatedAt]);
  const shownRecent = useMemo(() => unconfirmed.map((r) => r.event), [unconfirmed]);
  // Ask again until they are in (or given up on).
  useEffect(() => {
    if (unconfirmed.length === 0 || page !== 0) return;
    const timer = setTimeout(() => {
      setRecentlySent((list) => list.filter((r) => Date.now() - r.at < recentHoldMs));
      void queryClient.invalidateQueries({ queryKey: state.current.listKey });
    }, 2000);
    return () => clearTimeout(timer);
  }, [unconfirmed, page, queryClient]);
  const rows = useMemo(
    () => historyRows({ serverEvents, ops, recentlySent: shownRecent, firstPage: page === 0 }),
    [serverEvents, ops, shownRecent, page],
  );

  // Latest values for the push handlers below.
  const state = useRef({
    serverEvents,
    newestTs: newest.data?.[0]?.ts,
    listKey: eventKeys.list(listQuery),
    newestKey: eventKeys.list(newestQuery),
  });
  state.current = {
    serverEvents,
    newestTs: newest.data?.[0]?.ts,
    listKey: eventKeys.list(listQuery),
    newestKey: eventKeys.list(newestQuery),
  };

  /** Refetch what a pushed event can change: the page if it falls within it, the newest card if it is newer. */
  const onEventPush = (pushed: Pick<WsEvent, 'ts'>) => {
    const { serverEvents: shown, newestTs, listKey, newestKey } = state.current;
    const oldest = shown[shown.length - 1]?.ts;
    if (shown.length < historyPageSize || !oldest || pushed.ts >= oldest)
      void queryClient.invalidateQueries({ queryKey: listKey });
    if (!newestTs || pushed.ts >= newestTs) void queryClient.invalidateQueries({ queryKey: newestKey });
  };
  useSubscription('newEvents', onEventPush);
  useSubscription('updateEvents', (e) => {
    onEventPush(e);
    void queryClient.invalidateQueries({ queryKey: eventKeys.export(e.id) });
  });
  useSubscription('deleteEvents', (e) => {
    setRecentlySent((list) => (list.some((r) => r.event.id === e.id) ? list.filter((r) => r.event.id !== e.id) : list));
    onEventPush(e);
  });
  // New or changed aux data (navigation, frame grabs) shows in the cards of its event.
  const onAuxPush = (aux: { event_id: string }) =>
    void queryClient.invalidateQueries({ queryKey: eventKeys.export(aux.event_id) });
  useSubscription('newEventAuxData', onAuxPush);
  useSubscription('updateEventAuxData', onAuxPush);

  // What this browser delivered shows at once; the refetch then confirms it.
  useEffect(
    () =>
      eventQueue.onSent((op, response) => {
        if (op.kind === 'create') {
          const inserted = (response as { insertedEvent?: LogEvent } | undefined)?.insertedEvent;
          if (inserted) setRecentlySent((list) => [...list.slice(-50), { event: inserted, at: Date.now() }]);
        }
        void queryClient.invalidateQueries({ queryKey: state.current.listKey });
        void queryClient.invalidateQueries({ queryKey: state.current.newestKey });
      }),
    [queryClient],
  );

  // A link that comes back is a good moment to send what waited.
  useEffect(() => realtime?.onReconnect(() => eventQueue.retryNow()), [realtime]);

  const waiting = [...new Set(ops.filter((op) => !op.failed).map((op) => op.eventId))];
  // Refused changes to events (a failed create shows as its own line instead).
  const refusedChanges = ops.filter((op) => op.failed && op.kind !== 'create');
  const unreachable =
    ops.some((op) => !op.failed && op.attempts > 0) || (list.isError && (list.error as ApiError).statusCode === 0);
  const older = (list.data?.length ?? 0) < historyPageSize;

  return (
    <>
      {showNewest && <NewestEventCard event={newest.data?.[0]} onHide={() => setShowNewest(false)} />}
      <Card className="mb-2" data-testid="event-history">
        <Card.Header className="event-history-header">
          <span>Event History</span>
          <span className="event-history-tools">
            {!showNewest && (
              <Button variant="link" size="sm" className="p-0" onClick={() => setShowNewest(true)}>
                Show Recent Event
              </Button>
            )}
            {showHistory && (
              <>
                <Form.Control
                  size="sm"
                  type="search"
                  placeholder="Filter"
                  aria-label="Filter"
                  value={filterText}
                  onChange={(e) => setFilterText(e.target.value)}
                  onKeyDown={(e) => {
                    if (e.key === 'Enter') e.preventDefault();
                  }}
                />
                <button
                  type="button"
                  className="header-icon"
                  title={expanded ? 'Compress event history' : 'Expand event history'}
                  aria-label={expanded ? 'Compress event history' : 'Expand event history'}
                  onClick={() => setExpanded((x) => !x)}
                >
                  <i className={`bi ${expanded ? 'bi-fullscreen-exit' : 'bi-arrows-fullscreen'}`} aria-hidden="true" />
                </button>
              </>
            )}
            <button
              type="button"
              className="header-icon"
              title={showHistory ? 'Hide event history' : 'Show event history'}
              aria-label={showHistory ? 'Hide event history' : 'Show event history'}
              onClick={() => setShowHistory((x) => !x)}
            >
              <i className={`bi ${showHistory ? 'bi-eye-fill' : 'bi-eye-slash-fill'}`} aria-hidden="true" />
            </button>
          </span>
        </Card.Header>
        {showHistory && (
          <>
            {unreachable && waiting.length > 0 && (
              <Alert variant="warning" className="m-2 py-1 small" data-testid="offline-notice">
                The server cannot be reached. {waiting.length === 1 ? '1 event is' : `${waiting.length} events are`}{' '}
                kept in this browser and will be sent when the link returns.
              </Alert>
            )}
            {refusedChanges.length > 0 && (
              <Alert
                variant="danger"
                className="m-2 py-1 small d-flex justify-content-between align-items-center gap-2"
                data-testid="refused-changes"
              >
                <span>
                  <strong>Oops!</strong> The server refused{' '}
                  {refusedChanges.length === 1 ? 'a change' : `${refusedChanges.length} changes`} made while offline:{' '}
                  {refusedChanges[0]!.failed}
                </span>
                <Button
                  size="sm"
                  variant="light"
                  onClick={() => refusedChanges.forEach((op) => void eventQueue.discard(op.seq))}
                >
                  Dismiss
                </Button>
              </Alert>
            )}
            {list.isError && !unreachable && <ErrorAlert className="m-2" message={errorMessage(list.error)} />}
            <div className={`event-history-body${expanded ? ' expanded' : ''}`} data-testid="event-history-body">
              {list.isPending && rows.length === 0 ? (
                <LoadingText text={statusTexts.loading} />
              ) : rows.length === 0 ? (
                <EmptyText>{statusTexts.noEvents}</EmptyText>
              ) : (
                <ListGroup variant="flush" className="event-list">
                  {rows.map((row) => (
                    <EventLine
                      key={row.event.id}
                      event={row.event}
                      pending={row.pending}
                      onOpen={row.pending ? undefined : (e) => setDetailsId(e.id)}
                      onComment={canComment && !row.pending ? setCommentFor : undefined}
                      extra={
                        row.pending === 'failed' && row.seq !== undefined ? (
                          <button
                            type="button"
                            className="event-icon"
                            title={`Not saved: ${row.error ?? ''}. Discard it`}
                            aria-label="Discard this event"
                            onClick={() => void eventQueue.discard(row.seq!)}
                          >
                            <i className="bi bi-x-circle" aria-hidden="true" />
                          </button>
                        ) : row.pending ? undefined : (
                          <VideoAtEvent
                            event={row.event}
                            now={Date.now()}
                            onRecorded={() => setDetailsId(row.event.id)}
                          />
                        )
                      }
                    />
                  ))}
                </ListGroup>
              )}
            </div>
            <Card.Footer className="event-history-footer">
              <span className="d-flex gap-1">
                <Button variant="outline-primary" size="sm" disabled={page === 0} onClick={() => setPage(0)}>
                  Newest Events
                </Button>
                <Button
                  variant="outline-primary"
                  size="sm"
                  disabled={page === 0}
                  onClick={() => setPage((p) => Math.max(0, p - 1))}
                >
                  Newer Events
                </Button>
                <Button
                  variant="outline-primary"
                  size="sm"
                  disabled={older || list.isPlaceholderData}
                  onClick={() => setPage((p) => p + 1)}
                >
                  Older Events
                </Button>
              </span>
              <Form.Check
                type="switch"
                id="hide-asnap"
                label="Hide ASNAP"
                checked={hideAsnap}
                disabled={filterText.trim() !== ''}
                onChange={(e) => setHideAsnap(e.target.checked)}
              />
            </Card.Footer>
          </>
        )}
      </Card>
      <EventDetailsModal eventId={detailsId} onHide={() => setDetailsId(null)} />
      {canComment && <CommentModal event={commentFor} onHide={() => setCommentFor(null)} />}
    </>
  );
}
