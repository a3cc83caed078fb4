import { getList } from './client';

/**
 * The GET of all templates the caller may use, sorted by event_name; 404 = none. Unchecked, and
 * free of zod: the first screen starts it as soon as the entry runs, before api/event-templates
 * (which checks the answer) has crossed the link (app/first-screen.ts).
 */
export function fetchEventTemplates(signal?: AbortSignal): Promise<unknown[]> {
  return getList<unknown>('event_templates', { query: { sort: 'event_name' }, signal });
}
