import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod/mini';
import {
  createEventResponseSchema,
  eventCommentOptionName,
  eventCountSchema,
  eventSchema,
  videoLinkSchema,
  type CreateEventInput,
  type CreateEventResponse,
  type EventOption,
  type LogEvent,
  type UpdateEventInput,
} from '@bathylog/shared';
import { api, getList, type Query } from '../../../api/client';

/**
 * Event reads and writes (docs/wire.md#events, docs/wire.md#event-exports) shared by the console,
 * event management and the review screens. One key object; mutations invalidate through it.
 */

export const exportedAuxSchema = z.object({
  data_source: z.string(),
  data_array: z.array(
    z.object({
      data_name: z.string(),
      data_value: z.union([z.string(), z.number()]),
      data_uom: z.optional(z.string()),
    }),
  ),
});
export type ExportedAux = z.infer<typeof exportedAuxSchema>;

/** An event with its aux data embedded (GET event_exports/{id}). */
export const exportedEventSchema = z.extend(eventSchema, {
  aux_data: z.array(exportedAuxSchema),
  /** Each camera's recording and offset at the event (docs/video.md#exports). */
  video: z.optional(z.array(videoLinkSchema)),
});
export type ExportedEvent = z.infer<typeof exportedEventSchema>;

/**
 * The filter of the event list routes (docs/wire.md#event-filters).
 * Arrays become repeated keys.
 */
export interface EventQuery {
  fulltext?: string[];
  author?: string[];
  value?: string[];
  datasource?: string[];
  startTS?: string;
  stopTS?: string;
  sort?: 'newest' | 'oldest';
  offset?: number;
  limit?: number;
  /** Bathylog extension: only events missing required aux data (docs/completeness.md#event-lists). */
  completeness?: 'incomplete';
}

export const eventKeys = {
  all: ['events'] as const,
  lists: () => [...eventKeys.all, 'list'] as const,
  list: (query: EventQuery) => [...eventKeys.lists(), query] as const,
  counts: () => [...eventKeys.all, 'count'] as const,
  count: (query: EventQuery) => [...eventKeys.counts(), query] as const,
  exports: () => [...eventKeys.all, 'export'] as const,
  export: (id: string) => [...eventKeys.exports(), id] as const,
};

const eventListSchema = z.array(eventSchema);

function toQuery(query: EventQuery): Query {
  const { sort, ...rest } = query;
  // The server sorts oldest first for anything but `newest`; leave the key out then.
  return { ...rest, sort: sort === 'newest' ? 'newest' : undefined };
}

export async function getEvents(query: EventQuery, signal?: AbortSignal): Promise<LogEvent[]> {
  return eventListSchema.parse(await getList('events', { query: toQuery(query), signal }));
}

export async function getEventCount(query: EventQuery, signal?: AbortSignal): Promise<number> {
  const { sort: _sort, offset: _offset, limit: _limit, ...filter } = query;
  return eventCountSchema.parse(await api.get('events/count', { query: toQuery(filter), signal })).events;
}

export async function getEventExport(id: string, signal?: AbortSignal): Promise<ExportedEvent> {
  return exportedEventSchema.parse(await api.get(`event_exports/${id}`, { signal }));
}

export async function getEvent(id: string, signal?: AbortSignal): Promise<LogEvent> {
  return eventSchema.parse(await api.get(`events/${id}`, { signal }));
}

export async function createEvent(body: CreateEventInput): Promise<CreateEventResponse> {
  return createEventResponseSchema.parse(await api.post('events', body));
}

export async function updateEvent(id: string, body: UpdateEventInput): Promise<void> {
  await api.patch(`events/${id}`, body);
}

export async function deleteEvent(id: string): Promise<void> {
  await api.delete(`events/${id}`);
}

export function useEvents(query: EventQuery, opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: eventKeys.list(query),
    queryFn: ({ signal }) => getEvents(query, signal),
    enabled: opts.enabled ?? true,
    placeholderData: (previous) => previous,
  });
}

export function useEventCount(query: EventQuery, opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: eventKeys.count(query),
    queryFn: ({ signal }) => getEventCount(query, signal),
    enabled: opts.enabled ?? true,
    placeholderData: (previous) => previous,
  });
}

export function useEventExport(id: string | null | undefined) {
  return useQuery({
    queryKey: eventKeys.export(id ?? ''),
    queryFn: ({ signal }) => getEventExport(id!, signal),
    enabled: !!id,
  });
}

/** The special option that holds a reviewer's comment (the server lets anyone who logs change it). */
export const commentOptionName = eventCommentOptionName;

export function eventComment(event: Pick<LogEvent, 'event_options'>): string {
  return event.event_options.find((o) => o.event_option_name === commentOptionName)?.event_option_value ?? '';
}

/** The options with `event_comment` replaced, or appended when there was none (docs/screens.md#comments). */
export function withComment(options: readonly EventOption[], comment: string): EventOption[] {
  const next = options.map((o) =>
    o.event_option_name === commentOptionName ? { ...o, event_option_value: comment } : o,
  );
  if (!next.some((o) => o.event_option_name === commentOptionName)) {
    next.push({ event_option_name: commentOptionName, event_option_value: comment });
  }
  return next;
}

/** Saves a comment: only the options change, so the event keeps its time and aux data. */
export function useSaveComment() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async ({ event, comment }: { event: Pick<LogEvent, 'id' | 'event_options'>; comment: string }) => {
      // Read the stored options first: the line on screen may be older than the event.
      const current = await getEvent(event.id).catch(() => null);
      await updateEvent(event.id, { event_options: withComment((current ?? event).event_options, comment) });
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: eventKeys.all }),
  });
}

export function useDeleteEvent() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteEvent(id),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: eventKeys.all }),
  });
}
