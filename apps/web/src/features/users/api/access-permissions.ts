import { useQuery } from '@tanstack/react-query';
import { cruiseSchema, loweringSchema, type Cruise, type Lowering, type PermissionsChange } from '@bathylog/shared';
import { z } from 'zod';
import { api, getList } from '../../../api/client';

/**
 * The reads and writes of the User Permissions modal (seed 000 §4, §7): cruises, their lowerings,
 * and the access-list changes. Kept with the users feature: nothing else needs this shape.
 */
export const accessKeys = {
  all: ['user-access'] as const,
  cruises: () => [...accessKeys.all, 'cruises'] as const,
  lowerings: (cruiseId: string) => [...accessKeys.all, 'lowerings', cruiseId] as const,
};

export async function getAllCruises(signal?: AbortSignal): Promise<Cruise[]> {
  return z.array(cruiseSchema).parse(await getList<Cruise>('cruises', { signal }));
}

export async function getLoweringsOfCruise(cruiseId: string, signal?: AbortSignal): Promise<Lowering[]> {
  return z.array(loweringSchema).parse(await getList<Lowering>(`lowerings/bycruise/${cruiseId}`, { signal }));
}

export async function changeCruisePermissions(id: string, change: PermissionsChange): Promise<void> {
  await api.patch(`cruises/${id}/permissions`, change);
}

export async function changeLoweringPermissions(id: string, change: PermissionsChange): Promise<void> {
  await api.patch(`lowerings/${id}/permissions`, change);
}

export function useAllCruises(enabled: boolean) {
  return useQuery({ queryKey: accessKeys.cruises(), queryFn: ({ signal }) => getAllCruises(signal), enabled });
}

export function useLoweringsOfCruise(cruiseId: string, enabled: boolean) {
  return useQuery({
    queryKey: accessKeys.lowerings(cruiseId),
    queryFn: ({ signal }) => getLoweringsOfCruise(cruiseId, signal),
    enabled,
  });
}
