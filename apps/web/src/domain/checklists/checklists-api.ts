import { useQuery, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod/mini';
import {
  checklistRunSchema,
  checklistSchema,
  type Checklist,
  type ChecklistRun,
  type CreateChecklist,
  type TickChecklistItem,
  type UpdateChecklist,
} from '@bathylog/shared';
import { api, getList } from '../../api/client';
import { useSubscription } from '../../api/use-realtime';

// Checklists (docs/checklists.md): the definitions the admin screen edits and the runs the console shows.

export const checklistKeys = {
  all: ['checklists'] as const,
  definitions: () => [...checklistKeys.all, 'definitions'] as const,
  runs: (loweringId: string) => [...checklistKeys.all, 'runs', loweringId] as const,
  /** Only the runs the lowering has (none started by reading): under `runs`, so a pushed run reaches both. */
  existingRuns: (loweringId: string) => [...checklistKeys.runs(loweringId), 'existing'] as const,
};

export async function getChecklists(signal?: AbortSignal): Promise<Checklist[]> {
  return z.array(checklistSchema).parse(await getList('checklists', { signal }));
}

export async function createChecklist(body: CreateChecklist): Promise<Checklist> {
  return checklistSchema.parse(await api.post('checklists', body));
}

export async function updateChecklist(id: string, body: UpdateChecklist): Promise<void> {
  await api.patch(`checklists/${id}`, body);
}

export async function deleteChecklist(id: string): Promise<void> {
  await api.delete(`checklists/${id}`);
}

export async function getChecklistRuns(
  loweringId: string,
  signal?: AbortSignal,
  opts: { start: boolean } = { start: true },
): Promise<ChecklistRun[]> {
  const path = `lowerings/${loweringId}/checklists${opts.start ? '' : '?start=false'}`;
  return z.array(checklistRunSchema).parse(await getList(path, { signal }));
}

export async function tickChecklistItem(
  run: ChecklistRun,
  itemId: string,
  body: TickChecklistItem,
): Promise<ChecklistRun> {
  return checklistRunSchema.parse(
    await api.patch(`lowerings/${run.lowering_id}/checklists/${run.id}/items/${encodeURIComponent(itemId)}`, body),
  );
}

export function useChecklists() {
  return useQuery({ queryKey: checklistKeys.definitions(), queryFn: ({ signal }) => getChecklists(signal) });
}

/** Puts one run (a tick's answer, a push) in place in the lowering's cached list. */
export function useStoreRun() {
  const queryClient = useQueryClient();
  return (run: ChecklistRun) =>
    queryClient.setQueriesData<ChecklistRun[]>({ queryKey: checklistKeys.runs(run.lowering_id) }, (runs) => {
      if (!runs) return runs;
      const at = runs.findIndex((r) => r.id === run.id);
      if (at === -1) return [...runs, run];
      return runs.map((r, i) => (i === at ? run : r));
    });
}

/**
 * The runs of a lowering, kept live by the checklists channel. Reading starts the runs it lacks;
 * with `start: false` only the runs it has are read (docs/checklists.md#the-lowering-card).
 */
export function useChecklistRuns(loweringId: string | null, opts: { start: boolean } = { start: true }) {
  const store = useStoreRun();
  useSubscription(
    'checklists',
    (message) => {
      if (message.lowering_id === loweringId) store(message.run);
    },
    { enabled: loweringId !== null },
  );
  return useQuery({
    queryKey: opts.start ? checklistKeys.runs(loweringId ?? '') : checklistKeys.existingRuns(loweringId ?? ''),
    queryFn: ({ signal }) => getChecklistRuns(loweringId!, signal, opts),
    enabled: loweringId !== null,
  });
}
