import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { auditPageSchema, createEventResponseSchema, type AuditPage, type CreateEventResponse } from '@bathylog/shared';
import { api, request } from '../../../api/client';
import type { AuditFilter } from '../lib/audit-filter';
import { auditQuery } from '../lib/audit-filter';

/** The audit trail (admins; docs/screens.md#audit). */
export const auditKeys = {
  all: ['audit'] as const,
  page: (filter: AuditFilter, page: number, pageSize: number) =>
    [...auditKeys.all, 'page', filter, page, pageSize] as const,
};

export async function getAuditPage(
  filter: AuditFilter,
  page: number,
  pageSize: number,
  signal?: AbortSignal,
): Promise<AuditPage> {
  return auditPageSchema.parse(
    await api.get('audit', {
      query: { ...auditQuery(filter), offset: (page - 1) * pageSize, limit: pageSize },
      signal,
    }),
  );
}

/** Every entry the filter matches, as the server's streamed CSV. */
export function getAuditCsv(filter: AuditFilter): Promise<Blob> {
  return request<Blob>('audit', { query: { ...auditQuery(filter), format: 'csv' }, responseType: 'blob' });
}

/** Restores a deleted event from its audit entry (admins). */
export async function restoreFromAudit(seq: number): Promise<CreateEventResponse> {
  return createEventResponseSchema.parse(await api.post(`audit/${seq}/restore`));
}

export function useAuditPage(filter: AuditFilter, page: number, pageSize: number) {
  return useQuery({
    queryKey: auditKeys.page(filter, page, pageSize),
    queryFn: ({ signal }) => getAuditPage(filter, page, pageSize, signal),
    placeholderData: keepPreviousData,
  });
}
