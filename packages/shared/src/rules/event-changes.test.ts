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

  it('lets the creator delete for an hour from when the server stored it, managers always', () => {
    const created_at = 1_700_000_000_000;
    expect(mayDeleteEvent(logger, { created_at, created_by: 'u1' }, created_at + 59 * 60_000)).toBe(true);
    expect(mayDeleteEvent(logger, { created_at, created_by: 'u1' }, created_at + 61 * 60_000)).toBe(false);
    expect(mayDeleteEvent(logger, { created_at, created_by: 'u9' }, created_at)).toBe(false);
    expect(mayDeleteEvent(logger, { created_at: null, created_by: 'u1' }, created_at)).toBe(false);
    expect(mayDeleteEvent(manager, { created_at: null, created_by: null }, created_at + 1e9)).toBe(true);
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
    // An event holds one comment: a second one is a new option, not a comment.
    expect(isCommentOnlyChange(stored, { event_options: [...stored.event_options, comment('a'), comment('b')] })).toBe(
      false,
    );
    expect(
      isCommentOnlyChange(stored, {
        event_options: [
          ...stored.event_options,
          comment('a'),
          { event_option_name: 'Event Comment', event_option_value: 'b' },
        ],
      }),
    ).toBe(false);
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
