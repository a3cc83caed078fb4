import { useQuery } from '@tanstack/react-query';
import { z } from 'zod/mini';
import { cruiseSchema, eventAuxDataSchema, type Cruise, type EventAuxData, type LogEvent } from '@bathylog/shared';
import { api, getList, isApiError } from '../../../api/client';
import { useLiveInvalidation } from '../../../api/use-realtime';
import { useSettings } from '../../../lib/settings';
import { eventKeys, type EventQuery } from '../../../domain/events/api/events';
import { getLowering, getLoweringTrack, readLoweringEvents } from '../../../domain/lowerings/lowering-api';

/**
 * What the review screens read (docs/screens.md#review-screens): the lowering and its cruise, the filtered
 * events of the lowering (all of them: the slider and replay run over the whole list), the
 * trackline, and the gallery's image records. Keys sit under `eventKeys.all`, so a comment saved
 * anywhere refreshes them, and the realtime channels invalidate them.
 */
export const reviewKeys = {
  all: [...eventKeys.all, 'review'] as const,
  lowering: (id: string) => [...reviewKeys.all, 'lowering', id] as const,
  cruise: (id: string) => [...reviewKeys.all, 'cruise', id] as const,
  events: (id: string) => [...reviewKeys.all, 'events', id] as const,
  eventList: (id: string, query: EventQuery) => [...reviewKeys.events(id), query] as const,
  eventHead: (id: string, query: EventQuery, count: number) =>
    [...reviewKeys.events(id), 'head', count, query] as const,
  track: (id: string) => [...reviewKeys.all, 'track', id] as const,
  images: (id: string) => [...reviewKeys.all, 'images', id] as const,
  imageList: (id: string, hideAsnap: boolean) => [...reviewKeys.images(id), hideAsnap] as const,
};

const auxListSchema = z.array(eventAuxDataSchema);

/** GET events/bylowering/{id} with the filter, oldest first; [] for none. */
export async function getLoweringEvents(id: string, query: EventQuery, signal?: AbortSignal): Promise<LogEvent[]> {
  const { sort: _sort, offset: _offset, limit: _limit, ...filter } = query;
  return readLoweringEvents(await getList(`events/bylowering/${id}`, { query: { ...filter }, signal }));
}

/**
 * The first page of the filtered events (limit = `count`): shown while the whole list (which the
 * slider, replay and paging run over) is still on its way, so a long dive is readable at once.
 */
export async function getLoweringEventsHead(
  id: string,
  query: EventQuery,
  count: number,
  signal?: AbortSignal,
): Promise<LogEvent[]> {
  const { sort: _sort, offset: _offset, limit: _limit, ...filter } = query;
  return readLoweringEvents(await getList(`events/bylowering/${id}`, { query: { ...filter, limit: count }, signal }));
}

/** The cruise holding the lowering (GET cruises/bylowering/{id}); null when none does. */
export async function getLoweringCruise(id: string, signal?: AbortSignal): Promise<Cruise | null> {
  try {
    return cruiseSchema.parse(await api.get(`cruises/bylowering/${id}`, { signal }));
  } catch (err) {
    if (isApiError(err, 404)) return null;
    throw err;
  }
}

/** GET event_aux_data/bylowering/{id} for each image source (+ value=!ASNAP while hidden). */
export async function getLoweringImages(
  id: string,
  sources: readonly string[],
  hideAsnap: boolean,
  signal?: AbortSignal,
): Promise<EventAuxData[]> {
  if (sources.length === 0) return [];
  return auxListSchema.parse(
    await getList(`event_aux_data/bylowering/${id}`, {
      query: { datasource: [...sources], value: hideAsnap ? ['!ASNAP'] : undefined },
      signal,
    }),
  );
}

export function useReviewLowering(id: string) {
  return useQuery({ queryKey: reviewKeys.lowering(id), queryFn: ({ signal }) => getLowering(id, signal) });
}

export function useReviewCruise(id: string) {
  return useQuery({ queryKey: reviewKeys.cruise(id), queryFn: ({ signal }) => getLoweringCruise(id, signal) });
}

export function useReviewEvents(id: string, query: EventQuery, enabled = true) {
  return useQuery({
    queryKey: reviewKeys.eventList(id, query),
    queryFn: ({ signal }) => getLoweringEvents(id, query, signal),
    placeholderData: (previous) => previous,
    enabled,
  });
}

/** The first `count` filtered events, while `enabled` (the whole list not there yet). */
export function useReviewEventsHead(id: string, query: EventQuery, count: number, enabled: boolean) {
  return useQuery({
    queryKey: reviewKeys.eventHead(id, query, count),
    queryFn: ({ signal }) => getLoweringEventsHead(id, query, count, signal),
    enabled,
  });
}

export function useReviewTrack(id: string, enabled = true) {
  return useQuery({
    queryKey: reviewKeys.track(id),
    queryFn: ({ signal }) => getLoweringTrack(id, signal),
    enabled,
    staleTime: 60_000,
  });
}

export function useReviewImages(id: string, hideAsnap: boolean) {
  const settings = useSettings();
  return useQuery({
    queryKey: reviewKeys.imageList(id, hideAsnap),
    queryFn: ({ signal }) => getLoweringImages(id, settings.imagesAuxDataSources, hideAsnap, signal),
  });
}

/**
 * New, changed and deleted events and aux data published while someone reviews show up without a
 * reload: the lists and the selected event's export are refetched.
 */
export function useReviewLive(id: string) {
  useLiveInvalidation(['newEvents', 'updateEvents', 'deleteEvents'], [reviewKeys.events(id), eventKeys.exports()]);
  useLiveInvalidation(
    ['newEventAuxData', 'updateEventAuxData', 'deleteEventAuxData'],
    [reviewKeys.images(id), reviewKeys.track(id), eventKeys.exports()],
  );
  useLiveInvalidation(['updateLowerings'], [reviewKeys.lowering(id)]);
}
