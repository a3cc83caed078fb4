import { queryOptions, useQuery } from '@tanstack/react-query';
import {
  eventTemplateSchema,
  type CreateEventTemplate,
  type EventTemplate,
  type UpdateEventTemplate,
} from '@bathylog/shared';
import { z } from 'zod/mini';
import { api, getList } from './client';

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
