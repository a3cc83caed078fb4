import { gisExportFileName, gisExportPath, type GisFormat } from '@bathylog/shared';
import type { Query } from '../../../api/client';
import type { EventQuery } from '../api/events';

/**
 * The export menu (docs/screens.md#event-exports; Sealog's file names): which route each item reads,
 * with which query, and the name the file is saved under.
 */
export type ExportKind = 'eventsWithAux' | 'eventsOnly' | 'auxOnly';
export type ExportFormat = 'json' | 'csv';

export interface ExportItem {
  kind: ExportKind;
  format: ExportFormat;
  label: string;
}

/** In menu order: JSON format, then CSV format. */
export const exportItems: readonly ExportItem[] = [
  { kind: 'eventsWithAux', format: 'json', label: 'Events w/aux data' },
  { kind: 'eventsOnly', format: 'json', label: 'Events Only' },
  { kind: 'auxOnly', format: 'json', label: 'Aux Data Only' },
  { kind: 'eventsWithAux', format: 'csv', label: 'Events w/aux data' },
  { kind: 'eventsOnly', format: 'csv', label: 'Events Only' },
];

export interface ExportScope {
  kind: 'cruise' | 'lowering';
  /** Database id of the record. */
  id: string;
}

const fileSuffix: Record<ExportKind, string> = {
  eventsWithAux: 'sealog_export',
  eventsOnly: 'sealog_eventExport',
  auxOnly: 'sealog_auxDataExport',
};

/** `{prefix}_sealog_export.json`, `{prefix}_sealog_eventExport.csv`, `{prefix}_sealog_auxDataExport.json`. */
export function exportFileName(prefix: string, item: Pick<ExportItem, 'kind' | 'format'>): string {
  return `${prefix}_${fileSuffix[item.kind]}.${item.format}`;
}

/** A time as the file-name prefix `YYYYMMDD_HHmm` (UTC). */
export function exportPrefixFromTs(ts: string | number | Date): string {
  const d = new Date(ts);
  const p = (n: number) => String(n).padStart(2, '0');
  return `${d.getUTCFullYear()}${p(d.getUTCMonth() + 1)}${p(d.getUTCDate())}_${p(d.getUTCHours())}${p(d.getUTCMinutes())}`;
}

/** The route an item reads (scope: the cruise's or lowering's events, or all). */
export function exportPath(item: Pick<ExportItem, 'kind'>, scope?: ExportScope): string {
  const base =
    item.kind === 'eventsWithAux' ? 'event_exports' : item.kind === 'eventsOnly' ? 'events' : 'event_aux_data';
  return scope ? `${base}/by${scope.kind}/${scope.id}` : base;
}

/**
 * The query an item sends: the screen's filter (no paging), plus `format` and
 * `add_record_ids=true` for event exports. The aux-data routes take neither format nor fulltext.
 */
export function exportQuery(item: Pick<ExportItem, 'kind' | 'format'>, filter: EventQuery): Query {
  const { fulltext, author, value, datasource, startTS, stopTS, completeness } = filter;
  if (item.kind === 'auxOnly') return { author, value, datasource, startTS, stopTS };
  return {
    fulltext,
    author,
    value,
    datasource,
    startTS,
    stopTS,
    format: item.format,
    add_record_ids: item.format === 'json' ? true : undefined,
    // "Incomplete only": those events, each with its completeness (docs/completeness.md#exports).
    completeness,
  };
}

/** Aux data cannot be selected by full text (the route refuses it): say so instead of exporting the wrong records. */
export function exportUnavailableReason(item: Pick<ExportItem, 'kind'>, filter: EventQuery): string | null {
  if (item.kind === 'auxOnly' && (filter.fulltext?.length ?? 0) > 0) return 'Aux data cannot be filtered by full text';
  if (item.kind === 'auxOnly' && filter.completeness) return 'Aux data cannot be filtered by completeness';
  return null;
}

/** GIS items, offered when the menu has a cruise or lowering scope: the track(s) and the events. */
export const gisExportItems: ReadonlyArray<{ format: GisFormat; label: string }> = [
  { format: 'geojson', label: 'Track & events (GeoJSON)' },
  { format: 'kml', label: 'Track & events (KML)' },
];

/** Path, query (the screen's filter, no paging) and file name of a GIS export. */
export function gisExportRequest(format: GisFormat, scope: ExportScope, filter: EventQuery, prefix: string) {
  const { fulltext, author, value, datasource, startTS, stopTS } = filter;
  return {
    path: gisExportPath(scope.kind, scope.id),
    query: { fulltext, author, value, datasource, startTS, stopTS, format } satisfies Query,
    fileName: gisExportFileName(prefix, format),
  };
}
