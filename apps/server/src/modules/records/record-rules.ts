import { messages, recordMessages } from '@bathylog/shared';
import { AppError } from '../../lib/app-error.js';

/** Rules shared by cruises and lowerings: time order, list bounds, field locks, ISO output. */

/** The start must come before the stop (Sealog's message). */
export function assertTimeOrder(start: number, stop: number): void {
  if (start >= stop) throw new AppError('BAD_REQUEST', recordMessages.startAfterStop);
}

/** startTS/stopTS of a list query: both optional, but a stop before the start is refused. */
export function assertQueryWindow(query: { startTS?: number; stopTS?: number }): void {
  if (query.startTS !== undefined && query.stopTS !== undefined && query.stopTS < query.startTS) {
    throw new AppError('BAD_REQUEST', '"stopTS" must not be before "startTS"');
  }
}

/** Sealog's overlap window: applied when either bound is given; missing ones are 1970 and now. */
export function overlapWindow(query: {
  startTS?: number;
  stopTS?: number;
}): { start: number; stop: number } | undefined {
  if (query.startTS === undefined && query.stopTS === undefined) return undefined;
  return { start: query.startTS ?? 0, stop: query.stopTS ?? Date.now() };
}

export function notFoundFor(id: string): AppError {
  return new AppError('NOT_FOUND', `No record found for id: ${id}`);
}

export function noRecords(): AppError {
  return new AppError('NOT_FOUND', messages.noRecords);
}

/** Field names the caller sent with a value different from the stored one. */
export function changedFields(
  sent: Record<string, unknown>,
  stored: Record<string, unknown>,
  keys: readonly string[],
): string[] {
  return keys.filter((k) => sent[k] !== undefined && !sameValue(sent[k], stored[k]));
}

function sameValue(a: unknown, b: unknown): boolean {
  return JSON.stringify(a) === JSON.stringify(b);
}

export function sameList(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((v, i) => v === b[i]);
}

/** What an access-list replacement adds and removes, for cascading it to lowerings. */
export function listDiff(before: readonly string[], after: readonly string[]): { add: string[]; remove: string[] } {
  return { add: after.filter((id) => !before.includes(id)), remove: before.filter((id) => !after.includes(id)) };
}
