import { csvHeader, csvRow, type EventListFormat, type EventListMapping } from '@bathylog/shared';
import { cell, iso } from './dwca-build.js';

/**
 * The event lists national archives take (docs/publication.md#event-lists): an R2R-style event log
 * (one row per mapped event, CSV) and a PANGAEA event list (one event per deployment, tab-separated).
 */

export interface ListedEvent {
  ts: number;
  mapping: EventListMapping;
  author: string;
  comment: string;
  /** The dive holding it (human id), or empty. */
  station: string;
  vessel: { lat: number; lon: number } | null;
  vehicle: { lat: number; lon: number; depth: number | null } | null;
}

const startActions = new Set(['deploy', 'start', 'launch', 'in water', 'on bottom']);
const endActions = new Set(['recover', 'end', 'stop', 'on deck', 'off bottom']);
const coord = (n: number | undefined | null) => (n === undefined || n === null ? '' : n.toFixed(6));

export function buildEventList(
  format: EventListFormat,
  cruise: string,
  events: readonly ListedEvent[],
): { contentType: string; extension: string; body: string } {
  return format === 'r2r' ? r2r(cruise, events) : pangaea(cruise, events);
}

function r2r(cruise: string, events: readonly ListedEvent[]) {
  const casts = new Map<string, number>();
  const rows = events.map((e, i) => {
    const key = `${e.station}\u0000${e.mapping.instrument}`;
    if (startActions.has(e.mapping.action.toLowerCase())) casts.set(key, (casts.get(key) ?? 0) + 1);
    const at = e.vessel ?? e.vehicle;
    return [
      cruise,
      `${cruise}-${String(i + 1).padStart(4, '0')}`,
      iso(e.ts),
      coord(at?.lat),
      coord(at?.lon),
      e.mapping.instrument,
      e.mapping.action,
      e.station,
      String(casts.get(key) ?? ''),
      e.author,
      cell(e.comment),
    ];
  });
  const header = [
    'cruise_id',
    'event_number',
    'time_utc',
    'latitude',
    'longitude',
    'instrument',
    'action',
    'station',
    'cast',
    'author',
    'comment',
  ];
  return {
    contentType: 'text/csv; charset=utf-8',
    extension: 'csv',
    body: [csvHeader(header), ...rows.map(csvRow)].join('\n') + '\n',
  };
}

/** PANGAEA labels: no blanks, letters, digits and `_ - .` only. */
const label = (text: string) => text.replace(/\s+/g, '').replace(/[^\w.-]/g, '_');

function pangaea(cruise: string, events: readonly ListedEvent[]) {
  interface Open {
    start: ListedEvent;
    end: ListedEvent | null;
  }
  const done: Open[] = [];
  const open = new Map<string, Open>();
  for (const e of events) {
    const key = `${e.station}\u0000${e.mapping.instrument}`;
    const action = e.mapping.action.toLowerCase();
    const current = open.get(key);
    if (startActions.has(action)) {
      if (current) done.push(current);
      open.set(key, { start: e, end: null });
    } else if (endActions.has(action) && current) {
      current.end = e;
      done.push(current);
      open.delete(key);
    } else done.push({ start: e, end: e });
  }
  done.push(...open.values());
  done.sort((a, b) => a.start.ts - b.start.ts);
  const counters = new Map<string, number>();
  const lines = [
    [
      'Event label',
      'Campaign',
      'Device',
      'Latitude',
      'Longitude',
      'Elevation [m]',
      'Date/Time start',
      'Date/Time end',
      'Latitude 2',
      'Longitude 2',
      'Comment',
    ].join('\t'),
  ];
  for (const d of done) {
    const station = d.start.station || 'cruise';
    const n = (counters.get(station) ?? 0) + 1;
    counters.set(station, n);
    const a = d.start.vehicle ?? d.start.vessel;
    const b = d.end ? (d.end.vehicle ?? d.end.vessel) : null;
    const depth = d.start.vehicle?.depth;
    lines.push(
      [
        label(`${cruise}_${station}-${n}`),
        label(cruise),
        cell(d.start.mapping.device || d.start.mapping.instrument),
        coord(a?.lat),
        coord(a?.lon),
        depth !== null && depth !== undefined ? String(-Math.round(depth)) : '',
        iso(d.start.ts),
        d.end ? iso(d.end.ts) : '',
        coord(b?.lat),
        coord(b?.lon),
        cell(d.start.comment),
      ].join('\t'),
    );
  }
  return { contentType: 'text/tab-separated-values; charset=utf-8', extension: 'tab', body: lines.join('\n') + '\n' };
}
