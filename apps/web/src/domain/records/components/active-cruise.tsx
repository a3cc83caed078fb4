import { useState } from 'react';
import { Alert, Form } from 'react-bootstrap';
import { useQuery } from '@tanstack/react-query';
import type { Cruise } from '@bathylog/shared';
import { getActiveCruises, recordKeys } from '../../../api/records';
import { useEntityNames } from '../../../lib/settings';

/** The browser remembers which of several overlapping cruises its user manages. */
const storageKey = 'bathylog.activeCruise';

function rememberedCruiseId(): string | null {
  try {
    return localStorage.getItem(storageKey);
  } catch {
    return null;
  }
}

function rememberCruiseId(id: string): void {
  try {
    localStorage.setItem(storageKey, id);
  } catch {
    // Private mode or storage full: the choice holds until the page closes.
  }
}

export interface ActiveCruise {
  /** Every cruise covering today, newest start first. */
  cruises: Cruise[];
  /** The one the managers' screens show: the user's choice, else the newest. */
  chosen: Cruise | null;
  choose: (id: string) => void;
  isPending: boolean;
  error: unknown;
}

/**
 * The cruise active now for a cruise manager's screens (docs/screens.md#overlapping-cruises). When
 * two cruises both cover today the newest is shown unless the user chose the other; the choice is
 * kept in this browser, so /cruises and /lowerings agree.
 */
export function useActiveCruise(opts: { enabled?: boolean } = {}): ActiveCruise {
  const query = useQuery({
    queryKey: recordKeys.cruises({ active: 'now' }),
    queryFn: ({ signal }) => getActiveCruises(signal),
    enabled: opts.enabled ?? true,
  });
  const [choice, setChoice] = useState(rememberedCruiseId);
  const cruises = query.data ?? [];
  const chosen = cruises.find((c) => c.id === choice) ?? cruises[0] ?? null;
  return {
    cruises,
    chosen,
    choose: (id) => {
      rememberCruiseId(id);
      setChoice(id);
    },
    isPending: query.isPending && (opts.enabled ?? true),
    error: query.error,
  };
}

/**
 * A warning when the dates of several cruises cover today, with the choice of the one to manage;
 * nothing when one cruise (or none) does.
 */
export function ActiveCruiseChoice({ active }: { active: ActiveCruise }) {
  const names = useEntityNames();
  if (active.cruises.length < 2 || !active.chosen) return null;
  const ids = active.cruises.map((c) => c.cruise_id);
  return (
    <Alert variant="warning" className="d-flex flex-wrap align-items-center gap-2" data-testid="overlapping-cruises">
      <span>
        {active.cruises.length} {names.cruises} cover today ({ids.join(', ')}): their dates overlap. Managing:
      </span>
      <Form.Select
        size="sm"
        className="w-auto"
        aria-label={`${names.Cruise} to manage`}
        value={active.chosen.id}
        onChange={(e) => active.choose(e.currentTarget.value)}
      >
        {active.cruises.map((c) => (
          <option key={c.id} value={c.id}>
            {c.cruise_id}
          </option>
        ))}
      </Form.Select>
    </Alert>
  );
}
