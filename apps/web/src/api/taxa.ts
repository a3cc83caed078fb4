import { useQuery } from '@tanstack/react-query';
import type {
  LegacyMapping,
  LegacyValue,
  PutLegacyMapping,
  SynonymReportRow,
  TaxonHit,
  TaxonImport,
  TaxonImportKind,
  TaxonomyStatus,
} from '@bathylog/shared';
import { currentToken } from '../lib/session';
import { ApiError, api, apiRoot, networkErrorMessage, toQueryString } from './client';

/**
 * Taxa (docs/taxa.md#api): the offline WoRMS taxonomy's search, the legacy mappings and the synonym
 * report. Answers are taken as typed: the server checks each against its response schema.
 */
export const taxaKeys = {
  all: ['taxa'] as const,
  search: (q: string) => [...taxaKeys.all, 'search', q] as const,
  status: () => [...taxaKeys.all, 'status'] as const,
  mappings: () => [...taxaKeys.all, 'legacy_mappings'] as const,
  values: () => [...taxaKeys.all, 'legacy_values'] as const,
  synonyms: (kind: 'cruise' | 'lowering', id: string) => [...taxaKeys.all, 'synonyms', kind, id] as const,
};

/** Letters typed before the console's picker searches. */
export const taxonSearchMinLength = 3;

export function searchTaxa(q: string, signal?: AbortSignal): Promise<TaxonHit[]> {
  return api.get<TaxonHit[]>('taxa', { query: { q, limit: 12 }, signal });
}

export function useTaxonSearch(q: string) {
  const text = q.trim();
  return useQuery({
    queryKey: taxaKeys.search(text),
    queryFn: ({ signal }) => searchTaxa(text, signal),
    enabled: text.length >= taxonSearchMinLength,
    staleTime: 60_000,
    placeholderData: (previous) => previous,
  });
}

export function useTaxonomyStatus() {
  return useQuery({
    queryKey: taxaKeys.status(),
    queryFn: ({ signal }) => api.get<TaxonomyStatus>('taxa/status', { signal }),
  });
}

export function useLegacyValues() {
  return useQuery({
    queryKey: taxaKeys.values(),
    queryFn: ({ signal }) => api.get<LegacyValue[]>('taxa/legacy_values', { signal }),
  });
}

export function putLegacyMapping(body: PutLegacyMapping): Promise<LegacyMapping> {
  return api.put<LegacyMapping>('taxa/legacy_mappings', body);
}

export function deleteLegacyMapping(id: string): Promise<void> {
  return api.delete(`taxa/legacy_mappings/${encodeURIComponent(id)}`);
}

export function useSynonymReport(kind: 'cruise' | 'lowering', id: string | undefined) {
  return useQuery({
    queryKey: taxaKeys.synonyms(kind, id ?? ''),
    queryFn: ({ signal }) => api.get<SynonymReportRow[]>('taxa/synonyms', { query: { [`${kind}_id`]: id }, signal }),
    enabled: !!id,
  });
}

/**
 * Uploads one taxonomy file (docs/taxa.md#importing), reporting the share sent: a WoRMS export's
 * taxon.txt is hundreds of megabytes. Resolves with the finished import; rejects with the
 * server's message.
 */
export function uploadTaxonomyFile(
  file: File,
  kind: TaxonImportKind,
  source: string,
  onProgress: (fraction: number) => void,
): Promise<TaxonImport> {
  return new Promise((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    const query = toQueryString({ kind, ...(source.trim() ? { source: source.trim() } : {}) });
    xhr.open('POST', `${apiRoot}/taxa/imports${query}`);
    const token = currentToken();
    if (token) xhr.setRequestHeader('Authorization', `Bearer ${token}`);
    xhr.setRequestHeader(
      'Content-Type',
      kind === 'json' ? 'application/json' : kind === 'csv' ? 'text/csv' : 'text/tab-separated-values',
    );
    xhr.upload.onprogress = (e) => {
      if (e.lengthComputable) onProgress(e.loaded / e.total);
    };
    xhr.onerror = () => reject(new ApiError(0, networkErrorMessage));
    xhr.onload = () => {
      let body: unknown;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        body = undefined;
      }
      if (xhr.status === 201) resolve(body as TaxonImport);
      else {
        const message = (body as { message?: unknown } | undefined)?.message;
        reject(new ApiError(xhr.status, typeof message === 'string' ? message : `Upload failed (${xhr.status})`));
      }
    };
    xhr.send(file);
  });
}
