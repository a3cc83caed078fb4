import { useQuery } from '@tanstack/react-query';
import { cruiseSchema, loweringSchema, type Cruise, type Lowering, type PermissionsChange } from '@bathylog/shared';
import { z } from 'zod/mini';
import { api, getList, type Query } from './client';

/**
 * Cruise and lowering calls (docs/wire.md#cruises, docs/wire.md#lowerings): lists, one record, create,
 * update, hide/show, delete, permissions. Used by the cruise menu, both management screens and
 * the user permissions modal.
 */
export const recordKeys = {
  all: ['records'] as const,
  cruises: (query?: Query) => [...recordKeys.all, 'cruises', query ?? {}] as const,
  cruise: (id: string) => [...recordKeys.all, 'cruise', id] as const,
  lowerings: (query?: Query) => [...recordKeys.all, 'lowerings', query ?? {}] as const,
  loweringsOfCruise: (cruiseId: string) => [...recordKeys.all, 'lowerings-of-cruise', cruiseId] as const,
  lowering: (id: string) => [...recordKeys.all, 'lowering', id] as const,
};

const cruiseList = z.array(cruiseSchema);
const loweringList = z.array(loweringSchema);

/** The cruises the caller may see, newest start first (404 = none). */
export async function getCruises(query?: Query, signal?: AbortSignal): Promise<Cruise[]> {
  return cruiseList.parse(await getList<Cruise>('cruises', { query, signal }));
}

export async function getCruise(id: string, signal?: AbortSignal): Promise<Cruise> {
  return cruiseSchema.parse(await api.get(`cruises/${id}`, { signal }));
}

/** The lowerings the caller may see, newest start first (404 = none). */
export async function getLowerings(query?: Query, signal?: AbortSignal): Promise<Lowering[]> {
  return loweringList.parse(await getList<Lowering>('lowerings', { query, signal }));
}

/** The lowerings that start inside a cruise, newest first. */
export async function getLoweringsOfCruise(cruiseId: string, signal?: AbortSignal): Promise<Lowering[]> {
  return loweringList.parse(await getList<Lowering>(`lowerings/bycruise/${cruiseId}`, { signal }));
}

export async function getLowering(id: string, signal?: AbortSignal): Promise<Lowering> {
  return loweringSchema.parse(await api.get(`lowerings/${id}`, { signal }));
}

/**
 * Every cruise covering now (asked as `startTS` = `stopTS` = now), newest start first: more than
 * one when their dates overlap.
 */
export async function getActiveCruises(signal?: AbortSignal): Promise<Cruise[]> {
  const now = new Date().toISOString();
  return getCruises({ startTS: now, stopTS: now }, signal);
}

export type RecordKind = 'cruise' | 'lowering';

/** POST /cruises or /lowerings; answers the new record's id. */
export async function createRecord(kind: RecordKind, body: unknown): Promise<string> {
  const res = await api.post<{ insertedId: string }>(`${kind}s`, body);
  return res.insertedId;
}

export async function updateRecord(kind: RecordKind, id: string, body: unknown): Promise<void> {
  await api.patch(`${kind}s/${id}`, body);
}

/** Hide or show, through the update call as Sealog clients do (there is no separate route). */
export async function setRecordHidden(kind: RecordKind, id: string, hidden: boolean): Promise<void> {
  await api.patch(`${kind}s/${id}`, { [`${kind}_hidden`]: hidden });
}

export async function deleteRecord(kind: RecordKind, id: string): Promise<void> {
  await api.delete(`${kind}s/${id}`);
}

export async function changeCruisePermissions(id: string, change: PermissionsChange): Promise<void> {
  await api.patch(`cruises/${id}/permissions`, change);
}

export async function changeLoweringPermissions(id: string, change: PermissionsChange): Promise<void> {
  await api.patch(`lowerings/${id}/permissions`, change);
}

export function useCruises(query?: Query, opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: recordKeys.cruises(query),
    queryFn: ({ signal }) => getCruises(query, signal),
    enabled: opts.enabled ?? true,
  });
}

export function useLowerings(query?: Query, opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: recordKeys.lowerings(query),
    queryFn: ({ signal }) => getLowerings(query, signal),
    enabled: opts.enabled ?? true,
  });
}

export function useLoweringsOfCruise(cruiseId: string | null, opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: recordKeys.loweringsOfCruise(cruiseId ?? ''),
    queryFn: ({ signal }) => getLoweringsOfCruise(cruiseId!, signal),
    enabled: !!cruiseId && (opts.enabled ?? true),
  });
}

export function useCruise(id: string | null) {
  return useQuery({
    queryKey: recordKeys.cruise(id ?? ''),
    queryFn: ({ signal }) => getCruise(id!, signal),
    enabled: !!id,
  });
}

export function useLowering(id: string | null) {
  return useQuery({
    queryKey: recordKeys.lowering(id ?? ''),
    queryFn: ({ signal }) => getLowering(id!, signal),
    enabled: !!id,
  });
}
