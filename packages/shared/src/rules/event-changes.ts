import { capabilityRoles, hasAnyRole } from '../roles.js';
import { normalizeOptionName, ownEventDeleteWindowMs, type EventOption } from '../schemas/events.js';

/** The option that holds an event's comment (Add/Update Comment on the review and management screens). */
export const eventCommentOptionName = 'event_comment';

/** Who acts on an event: a user, or a device key (its id, its roles). */
export interface EventActor {
  id: string;
  roles: readonly string[];
}

/**
 * Who created an event, as the server recorded it: the id of the user or device key that created
 * it, or null when nobody is known (events from before the server recorded it, imports without a
 * caller). `event_author` is only a label that scripts set, so no right rests on it.
 */
export interface EventCreator {
  created_by: string | null;
}

/** Admins and event managers change and delete any event. */
export function managesAnyEvent(roles: readonly string[]): boolean {
  return hasAnyRole(roles, capabilityRoles.changeAnyEvent);
}

/** True when the actor is who created the event (never for an event of unknown creator). */
export function createdEvent(actor: EventActor, event: EventCreator): boolean {
  return event.created_by !== null && event.created_by === actor.id;
}

/** Whether the actor may change an event beyond its comment: its creator, admins and event managers. */
export function mayChangeEvent(actor: EventActor, event: EventCreator): boolean {
  return managesAnyEvent(actor.roles) || createdEvent(actor, event);
}

/**
 * Whether the actor may add, change or delete an event's aux data (position, depth, frame grabs:
 * they change the map, the dive figures and the exports as much as the event does): whoever may
 * change the event beyond its comment, and the aux-data inserters a deployment runs
 * (`aux_data_inserter`, docs/security.md#who-may-change-an-events-data).
 */
export function mayChangeAuxData(actor: EventActor, event: EventCreator): boolean {
  return hasAnyRole(actor.roles, capabilityRoles.changeAnyAuxData) || createdEvent(actor, event);
}

/** The refusal when `mayChangeAuxData` says no. */
export const auxDataChangeRefused =
  'Only admins, event managers, aux-data inserters and whoever created this event can change its aux data';

/**
 * When the server stored an event (epoch ms), or null when it did not record it. Never the time
 * inside the event id: a client chooses ids, and one from the future would keep the window open.
 */
export interface EventCreatedAt {
  created_at: number | null;
}

/**
 * Whether the actor may delete an event: admins and event managers any event; its creator within
 * an hour of the server storing it (the console deletes the bare event when its options modal is
 * cancelled), so that nobody else prunes the record later. Unknown creation time: the hour is over.
 */
export function mayDeleteEvent(actor: EventActor, event: EventCreator & EventCreatedAt, now: number): boolean {
  if (managesAnyEvent(actor.roles)) return true;
  if (event.created_at === null || !createdEvent(actor, event)) return false;
  return now - event.created_at <= ownEventDeleteWindowMs;
}

/** An event's fields as stored (ts in epoch milliseconds). */
export interface EventFields {
  event_author: string;
  ts: number;
  event_value: string;
  event_options: readonly EventOption[];
  event_free_text: string;
}

const named = (options: readonly EventOption[]) =>
  options.map((o) => ({ name: normalizeOptionName(o.event_option_name), value: o.event_option_value }));
const withoutComment = (options: readonly EventOption[]) =>
  named(options).filter((o) => o.name !== eventCommentOptionName);
const commentCount = (options: readonly EventOption[]) =>
  named(options).filter((o) => o.name === eventCommentOptionName).length;

/**
 * True when a change touches nothing but the event's comment: every other field it names keeps
 * its stored value, and its options are the stored ones, in order, apart from one `event_comment`
 * (added, edited or removed). Anyone who may write events may comment on any event; a second
 * `event_comment` would be new data under the comment's name, so it needs the right to change it.
 */
export function isCommentOnlyChange(existing: EventFields, change: Partial<EventFields>): boolean {
  if (change.event_author !== undefined && change.event_author !== existing.event_author) return false;
  if (change.ts !== undefined && change.ts !== existing.ts) return false;
  if (change.event_value !== undefined && change.event_value !== existing.event_value) return false;
  if (change.event_free_text !== undefined && change.event_free_text !== existing.event_free_text) return false;
  if (change.event_options === undefined) return true;
  if (commentCount(change.event_options) > 1) return false;
  const before = withoutComment(existing.event_options);
  const after = withoutComment(change.event_options);
  return (
    before.length === after.length && before.every((o, i) => o.name === after[i]!.name && o.value === after[i]!.value)
  );
}
