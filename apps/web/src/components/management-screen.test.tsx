import { afterEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, renderHook } from '@testing-library/react';
import { useSystemSplitList } from './management-screen';

afterEach(cleanup);

interface Row {
  id: string;
  username: string;
  system: boolean;
}

const alice: Row = { id: 'a', username: 'alice', system: false };
const bob: Row = { id: 'b', username: 'bob', system: false };

function useList(items: Row[]) {
  return useSystemSplitList<Row>({
    items,
    loaded: true,
    isSystem: (r) => r.system,
    remove: vi.fn(async () => undefined),
    removeAll: vi.fn(async () => undefined),
    refresh: vi.fn(async () => undefined),
    word: 'user',
    name: (r) => r.username,
  });
}

describe('useSystemSplitList', () => {
  it('says so when the record in the form is deleted by someone else, instead of dropping it silently', () => {
    const { result, rerender } = renderHook(({ items }) => useList(items), { initialProps: { items: [alice, bob] } });
    act(() => result.current.edit(alice));
    expect(result.current.selected?.username).toBe('alice');
    expect(result.current.error).toBe('');
    // Another admin deletes alice: the next read no longer has her.
    rerender({ items: [bob] });
    expect(result.current.selected).toBeNull();
    expect(result.current.error).toBe(
      'The user alice was deleted by someone else while you were editing it; changes in the form were not saved.',
    );
    act(() => result.current.clearError());
    expect(result.current.error).toBe('');
  });

  it('says nothing when the list changes around a record that is still there', () => {
    const { result, rerender } = renderHook(({ items }) => useList(items), { initialProps: { items: [alice, bob] } });
    act(() => result.current.edit(alice));
    rerender({ items: [alice] });
    expect(result.current.selected?.username).toBe('alice');
    expect(result.current.error).toBe('');
  });
});
