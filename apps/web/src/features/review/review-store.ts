import { useCallback, useSyncExternalStore } from 'react';
import { emptyEventFilter, type EventFilterForm } from '../../domain/events/lib/event-filter';

/**
 * The one review store (docs/screens.md#review-screens): the lowering under review, its event filter,
 * Hide ASNAP (default off: ASNAP events shown) and the selected event. It lives outside the route
 * screens, so switching between Replay, Map and Gallery keeps the filter and the selection;
 * arriving with another lowering starts afresh. The filtered list itself is server state (query
 * cache, review api).
 */
export interface ReviewState {
  loweringId: string | null;
  filter: EventFilterForm;
  hideAsnap: boolean;
  /** null: the first event of the list. */
  selectedId: string | null;
}

const initial = (loweringId: string | null): ReviewState => ({
  loweringId,
  filter: emptyEventFilter,
  hideAsnap: false,
  selectedId: null,
});

let state: ReviewState = initial(null);
const listeners = new Set<() => void>();

function set(next: Partial<ReviewState>): void {
  state = { ...state, ...next };
  listeners.forEach((l) => l());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Starts the store for a lowering; the same lowering keeps what is there. */
export function openReview(loweringId: string): void {
  if (state.loweringId !== loweringId) {
    state = initial(loweringId);
    listeners.forEach((l) => l());
  }
}

export const reviewActions = {
  select: (id: string | null) => {
    if (state.selectedId !== id) set({ selectedId: id });
  },
  /** A new filter returns to the first event (docs/screens.md#filtered-events-and-filter). */
  setFilter: (filter: EventFilterForm) => set({ filter, selectedId: null }),
  setHideAsnap: (hideAsnap: boolean) => set({ hideAsnap, selectedId: null }),
};

/** The store for a lowering (opening it when it is another one). */
export function useReviewStore(loweringId: string): ReviewState {
  openReview(loweringId);
  const snapshot = useCallback(() => state, []);
  const current = useSyncExternalStore(subscribe, snapshot, snapshot);
  return current.loweringId === loweringId ? current : initial(loweringId);
}

/** For tests: back to nothing under review. */
export function resetReviewStore(): void {
  state = initial(null);
  listeners.forEach((l) => l());
}
