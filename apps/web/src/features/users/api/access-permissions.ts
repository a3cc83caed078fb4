import { useQuery } from '@tanstack/react-query';
import { getCruises, getLoweringsOfCruise } from '../../../api/records';

export { changeCruisePermissions, changeLoweringPermissions, getLoweringsOfCruise } from '../../../api/records';

/**
 * The reads of the User Permissions modal (docs/screens.md#user-permissions): cruises and their
 * lowerings, under the modal's own keys so its switches re-read together. The calls are the shared
 * record calls.
 */
export const accessKeys = {
  all: ['user-access'] as const,
  cruises: () => [...accessKeys.all, 'cruises'] as const,
  lowerings: (cruiseId: string) => [...accessKeys.all, 'lowerings', cruiseId] as const,
};

export function useAllCruises(enabled: boolean) {
  return useQuery({ queryKey: accessKeys.cruises(), queryFn: ({ signal }) => getCruises(undefined, signal), enabled });
}

export function useLoweringsOfCruise(cruiseId: string, enabled: boolean) {
  return useQuery({
    queryKey: accessKeys.lowerings(cruiseId),
    queryFn: ({ signal }) => getLoweringsOfCruise(cruiseId, signal),
    enabled,
  });
}
