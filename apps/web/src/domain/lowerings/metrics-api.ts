import { useQuery } from '@tanstack/react-query';
import {
  cruiseMetricsSchema,
  loweringMetricsSchema,
  metricsPath,
  type CruiseMetrics,
  type LoweringMetrics,
} from '@bathylog/shared';
import { api } from '../../api/client';

// Dive metrics (docs/review-and-gis.md#dive-metrics) as the cruise menu, the milestones editor and
// the reports read them.

export const metricsKeys = {
  all: ['dive-metrics'] as const,
  lowering: (id: string) => [...metricsKeys.all, 'lowering', id] as const,
  cruise: (id: string) => [...metricsKeys.all, 'cruise', id] as const,
};

export async function getLoweringMetrics(id: string, signal?: AbortSignal): Promise<LoweringMetrics> {
  return loweringMetricsSchema.parse(await api.get(metricsPath('lowering', id), { signal }));
}

export async function getCruiseMetrics(id: string, signal?: AbortSignal): Promise<CruiseMetrics> {
  return cruiseMetricsSchema.parse(await api.get(metricsPath('cruise', id), { signal }));
}

export function useLoweringMetrics(id: string, enabled = true) {
  return useQuery({
    queryKey: metricsKeys.lowering(id),
    queryFn: ({ signal }) => getLoweringMetrics(id, signal),
    enabled,
  });
}

export function useCruiseMetrics(id: string, enabled = true) {
  return useQuery({
    queryKey: metricsKeys.cruise(id),
    queryFn: ({ signal }) => getCruiseMetrics(id, signal),
    enabled,
  });
}
