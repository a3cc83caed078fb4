import { describe, expect, it } from 'vitest';
import { isCommentOnlyChange, mayChangeEvent, mayDeleteEvent } from './event-changes.js';

const logger = { id: 'u1', roles: ['event_logger'] };
const manager = { id: 'u2', roles: ['event_manager'] };
const stored = {
  event_author: 'alice',
  ts: 1000,
  event_value: 'FISH',
  event_free_text: '',
  event_options: [{ event_option_name: 'status', event_option_value: 'alive' }],
};
const comment = (text: string) => ({ event_option_name: 'event_comment', event_option_value: text });

describe('who may change an event', () => {
  it('rests on who created it, never on the author label', () => {
    expect(mayChangeEvent(logger, { created_by: 'u1' })).toBe(true);
    expect(mayChangeEvent(logger, { created_by: 'u9' })).toBe(false);
    expect(mayChangeEvent(logger, { created_by: null })).toBe(false);
    expect(mayChangeEvent(manager, { created_by: null })).toBe(true);
    expect(mayChangeEvent({ id: 'a', roles: ['admin'] }, { created_by: 'u9' })).toBe(true);
    expect(mayChangeEvent({ id: 'c', roles: ['cruise_manager'] }, { created_by: 'u9' })).toBe(false);
  });

  it('lets the creator delete for an hour, managers always', () => {
    const id = Math.floor(1_700_000_000).toString(16).padEnd(24, '0');
    const created = 1_700_000_000_000;
    expect(mayDeleteEvent(logger, { id, created_by: 'u1' }, created + 59 * 60_000)).toBe(true);
    expect(mayDeleteEvent(logger, { id, created_by: 'u1' }, created + 61 * 60_000)).toBe(false);
    expect(mayDeleteEvent(logger, { id, created_by: 'u9' }, created)).toBe(false);
    expect(mayDeleteEvent(manager, { id, created_by: null }, created + 1e9)).toBe(true);
  });

  it('tells a change of the comment alone from any other change', () => {
    expect(isCommentOnlyChange(stored, { event_options: [...stored.event_options, comment('hi')] })).toBe(true);
    expect(isCommentOnlyChange({ ...stored, event_options: [comment('a')] }, { event_options: [] })).toBe(true);
    expect(
      isCommentOnlyChange(stored, {
        event_options: [{ event_option_name: 'Event Comment', event_option_value: 'x' }, ...stored.event_options],
      }),
    ).toBe(true);
    expect(isCommentOnlyChange(stored, { event_value: 'FISH', event_author: 'alice', ts: 1000 })).toBe(true);
    expect(isCommentOnlyChange(stored, { event_options: [comment('hi')] })).toBe(false);
    expect(isCommentOnlyChange(stored, { event_author: 'bob' })).toBe(false);
    expect(isCommentOnlyChange(stored, { ts: 2000 })).toBe(false);
    expect(isCommentOnlyChange(stored, { event_free_text: 'x' })).toBe(false);
    expect(
      isCommentOnlyChange(stored, {
        event_options: [{ event_option_name: 'status', event_option_value: 'dead' }, comment('hi')],
      }),
    ).toBe(false);
  });
});
