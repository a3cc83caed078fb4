import { toIso, type EventAuxData, type EventOption, type GisFormat } from '@bathylog/shared';
import { parseJson } from '../../lib/json.js';
import type { EventItem } from '../events/event-output.js';

/**
 * Writing tracks and events as GeoJSON (RFC 7946) and KML 2.2, piece by piece so the service can
 * stream them. Coordinates are WGS84 longitude, latitude (in that order in both formats).
 * Event properties use the names of the event CSV columns (docs/wire.md#event-csv): `event_option.<name>`
 * and `<data_source>.<data_name>_value` / `_uom`, so a GIS layer and a spreadsheet line up.
 */

export const gisContentTypes: Record<GisFormat, string> = {
  geojson: 'application/geo+json; charset=utf-8',
  kml: 'application/vnd.google-earth.kml+xml; charset=utf-8',
};

export interface GisTrack {
  loweringId: string;
  source: string | null;
  /** [lon, lat] pairs in event-time order */
  coordinates: Array<[number, number]>;
  startTs: number | null;
  stopTs: number | null;
}

export interface GisEvent {
  item: EventItem;
  position: { lon: number; lat: number; depth: number | null } | null;
  loweringId?: string | undefined;
  cruiseId?: string | undefined;
}

type Properties = Record<string, string | number | null>;

/** The flat properties of an event (values as stored: strings stay strings). */
export function eventProperties(e: GisEvent): Properties {
  const { row } = e.item;
  const props: Properties = {
    id: row.id,
    ts: toIso(row.ts),
    event_value: row.event_value,
    event_author: row.event_author,
    event_free_text: row.event_free_text,
  };
  if (e.cruiseId !== undefined) props.cruise_id = e.cruiseId;
  if (e.loweringId !== undefined) props.lowering_id = e.loweringId;
  if (e.position?.depth != null) props.depth = e.position.depth;
  const unique = (base: string, suffix = '') => {
    let key = base;
    for (let n = 2; `${key}${suffix}` in props; n++) key = `${base}_${n}`;
    return key;
  };
  for (const option of parseJson<EventOption[]>(row.event_options, [])) {
    props[unique(`event_option.${option.event_option_name}`)] = option.event_option_value;
  }
  for (const aux of e.item.aux ?? []) {
    for (const datum of parseJson<EventAuxData['data_array']>(aux.data_array, [])) {
      const stem = unique(`${aux.data_source}.${datum.data_name}`, '_value');
      props[`${stem}_value`] = datum.data_value;
      props[`${stem}_uom`] = datum.data_uom ?? null;
    }
  }
  return props;
}

/** Rounds to 1e-7 degrees (about 1 cm), the precision RFC 7946 (section 11.2) suggests is plenty. */
const deg = (v: number) => Math.round(v * 1e7) / 1e7;

export const geojson = {
  open: (name: string) => `{"type":"FeatureCollection","name":${JSON.stringify(name)},"features":[`,
  track(t: GisTrack): string | null {
    // A LineString needs two positions or more (RFC 7946, section 3.1.4).
    if (t.coordinates.length < 2) return null;
    const coords = t.coordinates.map(([lon, lat]) => `[${deg(lon)},${deg(lat)}]`).join(',');
    const props = {
      kind: 'track',
      lowering_id: t.loweringId,
      position_source: t.source,
      start_ts: t.startTs === null ? null : toIso(t.startTs),
      stop_ts: t.stopTs === null ? null : toIso(t.stopTs),
      points: t.coordinates.length,
    };
    return `{"type":"Feature","geometry":{"type":"LineString","coordinates":[${coords}]},"properties":${JSON.stringify(props)}}`;
  },
  event(e: GisEvent): string {
    // An event without a position keeps its place in the collection with a null geometry (RFC 7946,
    // section 3.2).
    const geometry = e.position
      ? `{"type":"Point","coordinates":[${deg(e.position.lon)},${deg(e.position.lat)}]}`
      : 'null';
    return `{"type":"Feature","id":${JSON.stringify(e.item.row.id)},"geometry":${geometry},"properties":${JSON.stringify({ kind: 'event', ...eventProperties(e) })}}`;
  },
  separator: ',',
  close: () => ']}',
};

const xml = (text: string | number | null) =>
  String(text ?? '').replace(
    // Control characters other than tab and newlines are not allowed in XML 1.0: dropped.
    // eslint-disable-next-line no-control-regex
    /[<>&"'\u0000-\u0008\u000b\u000c\u000e-\u001f]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', '"': '&quot;', "'": '&apos;' })[c] ?? '',
  );

export const kml = {
  open: (name: string) =>
    `<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>${xml(name)}</name>` +
    '<Style id="track"><LineStyle><color>ff00ffff</color><width>2</width></LineStyle></Style>' +
    '<Style id="event"><IconStyle><scale>0.6</scale></IconStyle></Style>',
  track(t: GisTrack): string | null {
    if (t.coordinates.length < 2) return null;
    const coords = t.coordinates.map(([lon, lat]) => `${deg(lon)},${deg(lat)}`).join(' ');
    const span =
      t.startTs !== null && t.stopTs !== null
        ? `<TimeSpan><begin>${toIso(t.startTs)}</begin><end>${toIso(t.stopTs)}</end></TimeSpan>`
        : '';
    return (
      `<Placemark><name>${xml(t.loweringId)} track</name>${span}<styleUrl>#track</styleUrl>` +
      `<ExtendedData><Data name="kind"><value>track</value></Data><Data name="lowering_id"><value>${xml(t.loweringId)}</value></Data>` +
      `<Data name="position_source"><value>${xml(t.source)}</value></Data></ExtendedData>` +
      `<LineString><tessellate>1</tessellate><coordinates>${coords}</coordinates></LineString></Placemark>`
    );
  },
  event(e: GisEvent): string {
    const props = eventProperties(e);
    const data = Object.entries(props)
      .map(([k, v]) => `<Data name="${xml(k)}"><value>${xml(v)}</value></Data>`)
      .join('');
    const point = e.position
      ? `<Point><coordinates>${deg(e.position.lon)},${deg(e.position.lat)}</coordinates></Point>`
      : '';
    const { row } = e.item;
    return (
      `<Placemark id="${xml(row.id)}"><name>${xml(row.event_value)}</name>` +
      `<description>${xml(`${toIso(row.ts)} <${row.event_author}>${row.event_free_text ? `: ${row.event_free_text}` : ''}`)}</description>` +
      `<TimeStamp><when>${toIso(row.ts)}</when></TimeStamp><styleUrl>#event</styleUrl>` +
      `<ExtendedData><Data name="kind"><value>event</value></Data>${data}</ExtendedData>${point}</Placemark>`
    );
  },
  separator: '',
  close: () => '</Document></kml>',
};

export const gisWriters = { geojson, kml };
