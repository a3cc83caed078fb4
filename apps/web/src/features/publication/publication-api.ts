import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  dwcaPath,
  dwcaReportPath,
  publicationReportSchema,
  publicationSettingsSchema,
  type EventListFormat,
  type PublicationReport,
  type PublicationSettings,
  type UpdatePublicationSettings,
} from '@bathylog/shared';
import { api } from '../../api/client';

/** Standard publication (docs/publication.md): the archive's report, its download, the event lists, the settings. */
export type PublicationKind = 'cruise' | 'lowering';

export const publicationKeys = {
  report: (kind: PublicationKind, id: string) => ['publication', 'report', kind, id] as const,
  record: (kind: PublicationKind, id: string) => ['publication', 'record', kind, id] as const,
  settings: ['publication', 'settings'] as const,
};

export async function getPublicationReport(
  kind: PublicationKind,
  id: string,
  signal?: AbortSignal,
): Promise<PublicationReport> {
  return publicationReportSchema.parse(await api.get(dwcaReportPath(kind, id), { signal }));
}

/** The validator's report, built on demand (`enabled`): a cruise's archive takes a while. */
export function usePublicationReport(kind: PublicationKind, id: string, enabled: boolean) {
  return useQuery({
    queryKey: publicationKeys.report(kind, id),
    queryFn: ({ signal }) => getPublicationReport(kind, id, signal),
    enabled,
    staleTime: Infinity,
    retry: false,
  });
}

/** The record's human id, for the title. */
export function usePublicationRecord(kind: PublicationKind, id: string) {
  return useQuery({
    queryKey: publicationKeys.record(kind, id),
    queryFn: async ({ signal }) => {
      const record = await api.get<Record<string, unknown>>(`${kind}s/${id}`, { signal });
      return { humanId: String(record[`${kind}_id`] ?? ''), location: String(record[`${kind}_location`] ?? '') };
    },
  });
}

export function getDwcaZip(kind: PublicationKind, id: string): Promise<Blob> {
  return api.get<Blob>(dwcaPath(kind, id), { responseType: 'blob' });
}

export function getEventList(cruiseId: string, format: EventListFormat): Promise<Blob> {
  return api.get<Blob>(`publication/event_list/bycruise/${cruiseId}`, { query: { format }, responseType: 'blob' });
}

export function usePublicationSettings() {
  return useQuery({
    queryKey: publicationKeys.settings,
    queryFn: async ({ signal }): Promise<PublicationSettings> =>
      publicationSettingsSchema.parse(await api.get('publication/settings', { signal })),
  });
}

export function useSavePublicationSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (body: UpdatePublicationSettings) =>
      publicationSettingsSchema.parse(await api.put('publication/settings', body)),
    onSuccess: (saved) => {
      client.setQueryData(publicationKeys.settings, saved);
      void client.invalidateQueries({ queryKey: ['publication', 'report'] });
    },
  });
}
