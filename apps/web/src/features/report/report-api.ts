import { useQueries, useQuery } from '@tanstack/react-query';
import { z } from 'zod/mini';
import {
  milestoneFramegrab,
  milestoneFramegrabWindow,
  cruiseSchema,
  exportedEventSchema,
  loweringSchema,
  type Cruise,
  type ExportedEvent,
  type Lowering,
} from '@bathylog/shared';
import { api, getList, isApiError } from '../../api/client';
import { useSettings } from '../../lib/settings';
import { getLowering, getLoweringTrack } from '../../domain/lowerings/lowering-api';

/**
 * What the dive and cruise reports read (docs/review-and-gis.md#dive-report). Sections kept by
 * other parts of the server (completeness, checklists) answer 404 when a dive has none: the
 * report then says so instead of failing.
 */
export const reportKeys = {
  all: ['report'] as const,
  lowering: (id: string) => [...reportKeys.all, 'lowering', id] as const,
  cruiseOf: (id: string) => [...reportKeys.all, 'cruise-of', id] as const,
  cruise: (id: string) => [...reportKeys.all, 'cruise', id] as const,
  cruiseLowerings: (id: string) => [...reportKeys.all, 'cruise-lowerings', id] as const,
  track: (id: string) => [...reportKeys.all, 'track', id] as const,
  section: (id: string, name: string) => [...reportKeys.all, 'section', name, id] as const,
  thumbs: (id: string, what: string) => [...reportKeys.all, 'thumbs', id, what] as const,
};

export const completenessSchema = z.object({
  required_sources: z.array(z.string()),
  grace_seconds: z.number(),
  max_age_seconds: z.number(),
  events_total: z.number(),
  events_complete: z.number(),
  events_incomplete: z.number(),
  events_pending: z.number(),
  events_late: z.number(),
  missing_by_source: z.record(z.string(), z.number()),
  stale_by_source: z.record(z.string(), z.number()),
});
export type Completeness = z.infer<typeof completenessSchema>;

export const checklistRunSchema = z.object({
  id: z.string(),
  checklist_id: z.string(),
  name: z.string(),
  phase: z.string(),
  state: z.string(),
  completed_at: z.nullable(z.string()),
  completed_by: z.nullable(z.string()),
  items: z.array(
    z.object({
      id: z.string(),
      label: z.string(),
      kind: z.string(),
      state: z.string(),
      by: z.nullable(z.string()),
      at: z.nullable(z.string()),
      reason: z.nullable(z.string()),
    }),
  ),
});
export type ChecklistRun = z.infer<typeof checklistRunSchema>;

/** GET `path`, parsed; null when the server answers 404 (not recorded for this dive). */
async function optional<T>(path: string, schema: z.ZodMiniType<T>, signal?: AbortSignal): Promise<T | null> {
  try {
    return schema.parse(await api.get(path, { signal }));
  } catch (err) {
    if (isApiError(err, 404)) return null;
    throw err;
  }
}

export function useReportLowering(id: string) {
  return useQuery({ queryKey: reportKeys.lowering(id), queryFn: ({ signal }) => getLowering(id, signal) });
}

export function useReportCruiseOf(loweringId: string) {
  return useQuery({
    queryKey: reportKeys.cruiseOf(loweringId),
    queryFn: ({ signal }) => optional(`cruises/bylowering/${loweringId}`, cruiseSchema, signal),
  });
}

export function useReportCruise(id: string) {
  return useQuery({
    queryKey: reportKeys.cruise(id),
    queryFn: async ({ signal }): Promise<Cruise> => cruiseSchema.parse(await api.get(`cruises/${id}`, { signal })),
  });
}

export function useReportCruiseLowerings(cruiseId: string) {
  return useQuery({
    queryKey: reportKeys.cruiseLowerings(cruiseId),
    queryFn: async ({ signal }): Promise<Lowering[]> =>
      z.array(loweringSchema).parse(await getList(`lowerings/bycruise/${cruiseId}`, { signal })),
  });
}

export function useReportTrack(id: string) {
  return useQuery({ queryKey: reportKeys.track(id), queryFn: ({ signal }) => getLoweringTrack(id, signal) });
}

export function useCompleteness(id: string) {
  return useQuery({
    queryKey: reportKeys.section(id, 'completeness'),
    queryFn: ({ signal }) => optional(`lowerings/${id}/completeness`, completenessSchema, signal),
    retry: false,
  });
}

/** The checklists as run: reading them for the report starts none (docs/checklists.md#the-lowering-card). */
export function useChecklists(id: string) {
  return useQuery({
    queryKey: reportKeys.section(id, 'checklists'),
    queryFn: ({ signal }) => optional(`lowerings/${id}/checklists?start=false`, z.array(checklistRunSchema), signal),
    retry: false,
  });
}

const exportedList = z.array(exportedEventSchema);

/** Events with an image record, by the export filter (oldest first). */
async function imageEvents(
  loweringId: string,
  sources: readonly string[],
  query: Record<string, string | number | string[]>,
  signal?: AbortSignal,
): Promise<ExportedEvent[]> {
  if (sources.length === 0) return [];
  return exportedList.parse(
    await getList(`event_exports/bylowering/${loweringId}`, { query: { datasource: [...sources], ...query }, signal }),
  );
}

/**
 * The events of the thumbnail strip: at each milestone, the event with an image taken nearest it
 * within the shared window (none outside it), and every event of the sample values. Small reads
 * (the images of a few minutes per milestone), for a thin link.
 */
export function useStripEvents(loweringId: string, milestoneTimes: readonly string[], sampleValues: readonly string[]) {
  const settings = useSettings();
  const sources = settings.imagesAuxDataSources;
  const milestones = useQueries({
    queries: milestoneTimes.map((ts) => ({
      queryKey: reportKeys.thumbs(loweringId, `near-${ts}`),
      queryFn: async ({ signal }: { signal: AbortSignal }) => {
        const { from, to } = milestoneFramegrabWindow(Date.parse(ts));
        const query = { startTS: new Date(from).toISOString(), stopTS: new Date(to).toISOString(), limit: 200 };
        return milestoneFramegrab(await imageEvents(loweringId, sources, query, signal), Date.parse(ts));
      },
    })),
  });
  const samples = useQuery({
    queryKey: reportKeys.thumbs(loweringId, `samples-${sampleValues.join(',')}`),
    queryFn: ({ signal }) =>
      sampleValues.length === 0 ? [] : imageEvents(loweringId, sources, { value: [...sampleValues] }, signal),
  });
  return {
    pending: milestones.some((q) => q.isPending) || samples.isPending,
    error: milestones.find((q) => q.isError)?.error ?? samples.error,
    atMilestones: milestones.map((q) => q.data ?? null),
    // The server's value filter also matches longer values ("Photo - Rock Sample"): keep exact ones.
    samples: (samples.data ?? []).filter((e) => sampleValues.includes(e.event_value)),
  };
}
