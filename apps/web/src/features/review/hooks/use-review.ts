import { useCallback, useMemo } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { useEventExport } from '../../../domain/events/api/events';
import { eventFilterQuery } from '../../../domain/events/lib/event-filter';
import { reviewKeys, useReviewEvents, useReviewEventsHead, useReviewLive, useReviewLowering } from '../api/review';
import { reviewActions, useReviewStore } from '../review-store';

/** Filtered events per page on the review lists (docs/screens.md#page-sizes). */
export const reviewPageSize = 10;

/**
 * Everything the review screens share for one lowering (docs/screens.md#review-screens): the store, the
 * lowering, the filtered list (oldest first), the selected event (the first when none is chosen)
 * and that event with its aux data (refetched on every selection), kept live by the realtime
 * channels.
 */
export function useReview(loweringId: string) {
  const store = useReviewStore(loweringId);
  const lowering = useReviewLowering(loweringId);
  useReviewLive(loweringId);
  const query = useMemo(
    () => eventFilterQuery(store.filter, { hideAsnap: store.hideAsnap }),
    [store.filter, store.hideAsnap],
  );
  // A long dive's whole list takes a while: its first page is asked for first and shows meanwhile
  // (list, header, data cards); the slider, the play buttons and paging wait for the whole list,
  // asked for once the first page is there (the server answers the small request first).
  const cached = useQueryClient().getQueryData(reviewKeys.eventList(loweringId, query)) !== undefined;
  const head = useReviewEventsHead(loweringId, query, reviewPageSize, !cached);
  const list = useReviewEvents(loweringId, query, cached || !head.isPending);
  const headEvents =
    !cached && head.data && (store.selectedId === null || head.data.some((e) => e.id === store.selectedId))
      ? head.data
      : undefined;
  const events = useMemo(() => list.data ?? headEvents ?? [], [list.data, headEvents]);
  const found = store.selectedId === null ? -1 : events.findIndex((e) => e.id === store.selectedId);
  const index = found === -1 ? 0 : found;
  const selected = events[index] ?? null;
  const exported = useEventExport(selected?.id);

  const complete = list.data !== undefined;
  const selectIndex = useCallback(
    (i: number) => {
      // Past the first page before the whole list is there: nothing to select yet.
      if (!complete && i >= events.length) return;
      const event = events[Math.min(Math.max(0, i), events.length - 1)];
      if (event) reviewActions.select(event.id);
    },
    [events, complete],
  );

  return {
    loweringId,
    store,
    lowering,
    query,
    list,
    /** Nothing to show yet: neither the whole list nor its first page has arrived. */
    listPending: list.data === undefined && headEvents === undefined && !list.isError,
    /** The whole filtered list is there (the slider and paging run over it). */
    complete,
    events,
    index,
    selected,
    /** The selected event with its aux data, once loaded (and only when it is the selected one). */
    exported: exported.data && exported.data.id === selected?.id ? exported.data : null,
    exportedQuery: exported,
    page: Math.floor(index / reviewPageSize) + 1,
    selectIndex,
    selectPage: (page: number) => selectIndex((page - 1) * reviewPageSize),
    setFilter: reviewActions.setFilter,
    setHideAsnap: reviewActions.setHideAsnap,
  };
}

export type Review = ReturnType<typeof useReview>;
