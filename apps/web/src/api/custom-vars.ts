import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, getList } from './client';

/** Custom variables (docs/wire.md#custom-vars): ASNAP state and the server's free space. */
export interface CustomVar {
  id: string;
  custom_var_name: string;
  custom_var_value: string;
}

/** The three the footer shows (docs/screens.md#footer-status). */
export const statusVarNames = ['asnapStatus', 'freeSpaceInBytes', 'freeSpacePercentage'] as const;

export const customVarKeys = {
  all: ['custom_vars'] as const,
  /**
   * The realtime client updates this entry from `/ws/status/updateCustomVars` with
   * `queryClient.setQueryData(customVarKeys.list(names), …)`; see mergeCustomVar.
   */
  list: (names: readonly string[]) => [...customVarKeys.all, 'list', [...names]] as const,
};

export function getCustomVars(names: readonly string[], signal?: AbortSignal): Promise<CustomVar[]> {
  return getList<CustomVar>('custom_vars', { query: { name: [...names] }, signal });
}

export async function updateCustomVar(id: string, body: Partial<Omit<CustomVar, 'id'>>): Promise<void> {
  await api.patch(`custom_vars/${id}`, body);
}

/** Applies a pushed `{id?, custom_var_name, custom_var_value}` to a cached list. */
export function mergeCustomVar(
  list: CustomVar[] | undefined,
  update: Partial<CustomVar> & { custom_var_name: string },
): CustomVar[] {
  const current = list ?? [];
  const index = current.findIndex(
    (v) => v.custom_var_name === update.custom_var_name || (update.id && v.id === update.id),
  );
  if (index === -1) {
    return [
      ...current,
      { id: update.id ?? '', custom_var_name: update.custom_var_name, custom_var_value: update.custom_var_value ?? '' },
    ];
  }
  const next = [...current];
  next[index] = { ...next[index]!, ...update, id: next[index]!.id };
  return next;
}

export function useCustomVars(names: readonly string[], opts: { enabled?: boolean } = {}) {
  return useQuery({
    queryKey: customVarKeys.list(names),
    queryFn: ({ signal }) => getCustomVars(names, signal),
    enabled: opts.enabled ?? true,
    // Live updates come over the websocket; a slow poll keeps the footer right without it.
    refetchInterval: 60_000,
  });
}

/** Toggle ASNAP (admin): read the var, flip On/Off, PATCH it (docs/screens.md#asnap-switch). */
export function useToggleAsnap() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async () => {
      const [asnap] = await getCustomVars(['asnapStatus']);
      if (!asnap) throw new Error('asnapStatus is not defined on the server');
      const value = asnap.custom_var_value === 'On' ? 'Off' : 'On';
      await updateCustomVar(asnap.id, { custom_var_name: asnap.custom_var_name, custom_var_value: value });
      return value;
    },
    onSuccess: () => queryClient.invalidateQueries({ queryKey: customVarKeys.all }),
  });
}
