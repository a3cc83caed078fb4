import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  eventTemplateSchema,
  type CreateEventTemplate,
  type EventTemplate,
  type UpdateEventTemplate,
} from '@bathylog/shared';
import { z } from 'zod/mini';
import { api, getList, isApiError } from './client';

/** Event template calls (docs/wire.md#event-templates). */
export const eventTemplateKeys = {
  all: ['event_templates'] as const,
  list: () => [...eventTemplateKeys.all, 'list'] as const,
};

const templateListSchema = z.array(eventTemplateSchema);

/** All templates the caller may use, sorted by event_name; 404 = none. */
export async function getEventTemplates(signal?: AbortSignal): Promise<EventTemplate[]> {
  return templateListSchema.parse(
    await getList<EventTemplate>('event_templates', { query: { sort: 'event_name' }, signal }),
  );
}

/** Answers the new template's id. */
export async function createEventTemplate(body: CreateEventTemplate | Record<string, unknown>): Promise<string> {
  const res = await api.post<{ insertedId: string }>('event_templates', body);
  return res.insertedId;
}

/**
 * Whether a template with this id is stored (the import asks before it posts). A 4xx (not found,
 * an id the server cannot read) is "no"; anything else is thrown.
 */
export async function eventTemplateExists(id: string): Promise<boolean> {
  try {
    await api.get(`event_templates/${encodeURIComponent(id)}`);
    return true;
  } catch (err) {
    if (isApiError(err) && err.statusCode >= 400 && err.statusCode < 500 && err.statusCode !== 429) return false;
    throw err;
  }
}

/** PATCH without the id; `event_options` replaces the whole list. */
export async function updateEventTemplate(id: string, body: UpdateEventTemplate): Promise<void> {
  await api.patch(`event_templates/${id}`, body);
}

export async function deleteEventTemplate(id: string): Promise<void> {
  await api.delete(`event_templates/${id}`);
}

/** Deletes every non-system template; system templates survive bulk deletes. */
export async function deleteAllNonSystemEventTemplates(): Promise<void> {
  await api.delete('event_templates/all');
}

/** The template list query, shared by useEventTemplates and the console's prefetch (app/first-screen.ts). */
export function eventTemplatesQuery() {
  return queryOptions({ queryKey: eventTemplateKeys.list(), queryFn: ({ signal }) => getEventTemplates(signal) });
}

export function useEventTemplates(opts: { enabled?: boolean } = {}) {
  return useQuery({ ...eventTemplatesQuery(), enabled: opts.enabled ?? true });
}

/** The server's button order: case-insensitive by name, then exact name, then id. */
function byName(a: EventTemplate, b: EventTemplate): number {
  const la = a.event_name.toLowerCase();
  const lb = b.event_name.toLowerCase();
  if (la !== lb) return la < lb ? -1 : 1;
  if (a.event_name !== b.event_name) return a.event_name < b.event_name ? -1 : 1;
  return a.id < b.id ? -1 : a.id > b.id ? 1 : 0;
}

export type TemplatePush = 'new' | 'update' | 'delete';

/**
 * A template push applied to the cached list at once (docs/realtime.md#templates-on-the-console):
 * the change shows without waiting for a refetch round trip, as pushed events do. The payload
 * lacks `disabled` (Sealog's wire), so a cached template keeps its own; the caller still refetches
 * to learn what the payload cannot say (a template just disabled). Returns the new list, or
 * undefined when the payload is not a template.
 */
export function applyTemplatePush(
  list: readonly EventTemplate[] | undefined,
  kind: TemplatePush,
  payload: unknown,
): EventTemplate[] | undefined {
  if (!list) return undefined;
  const parsed = eventTemplateSchema.safeParse(payload);
  if (!parsed.success) return undefined;
  const pushed = parsed.data;
  const rest = list.filter((t) => t.id !== pushed.id);
  if (kind === 'delete') return rest;
  const cached = list.find((t) => t.id === pushed.id);
  const next = cached && 'disabled' in cached ? { ...pushed, disabled: cached.disabled } : pushed;
  return [...rest, next].sort(byName);
}
