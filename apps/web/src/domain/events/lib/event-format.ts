import { normalizeOptionName, type ClientSettings, type LogEvent } from '@bathylog/shared';
import { serverRoot } from '../../../api/client';
import { commentOptionName, type ExportedAux } from '../api/events';

/**
 * How events read on screen (docs/screens.md#event-line, docs/screens.md#data-cards): the one-line
 * form of the lists and the data cards of the details views.
 */

/** `sample_id`, `vehicleRealtimeNavData`, `vehicleRealtimeUSBLData` → `Sample Id`, `Vehicle Realtime Nav Data`, `… USBL Data`. */
export function humanize(name: string): string {
  return name
    .replace(/_+/g, ' ')
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .replace(/\s+/g, ' ')
    .trim()
    .split(' ')
    .map((w) => (w ? w.charAt(0).toUpperCase() + w.slice(1) : w))
    .join(' ');
}

/** The part of a list line after the arrow: `status: "Other", free_text: "END OF CRUISE"`; '' when there is none. */
export function eventDetailsText(event: Pick<LogEvent, 'event_options' | 'event_free_text'>): string {
  const parts = event.event_options
    .filter((o) => o.event_option_name !== commentOptionName)
    // Names as the server stores them (a line still waiting in the browser has the template's spelling).
    .map((o) => `${normalizeOptionName(o.event_option_name).replace(/_/g, ' ')}: "${o.event_option_value}"`);
  if (event.event_free_text) parts.push(`free_text: "${event.event_free_text}"`);
  return parts.join(', ');
}

/** The whole line as text (tests, copy): `{ts} <{author}>: {value} --> {details}`. */
export function eventLineText(event: LogEvent): string {
  const details = eventDetailsText(event);
  return `${event.ts} <${event.event_author}>: ${event.event_value}${details ? ` --> ${details}` : ''}`;
}

type CardSettings = Pick<
  ClientSettings,
  'auxDataSortOrder' | 'auxDataSourceReplace' | 'excludeAuxDataSources' | 'imagesAuxDataSources' | 'imagePath'
>;

export interface AuxCard {
  source: string;
  title: string;
  rows: Array<{ name: string; value: string }>;
}

/** The display name of an aux-data source: the configured rename, or its words capitalised. */
export function auxSourceTitle(source: string, replace: Record<string, string> | null): string {
  return replace?.[source] ?? humanize(source);
}

/**
 * Aux-data cards: every record whose source is neither an image nor an excluded source, listed
 * sources first in the configured order, then the others alphabetically. (The original put
 * unlisted sources first; this is a deliberate change, docs/screens.md#data-cards.)
 */
export function auxDataCards(auxData: readonly ExportedAux[], settings: CardSettings): AuxCard[] {
  const hidden = new Set([...settings.imagesAuxDataSources, ...settings.excludeAuxDataSources]);
  const order = settings.auxDataSortOrder;
  const rank = (source: string) => {
    const i = order.indexOf(source);
    return i === -1 ? order.length : i;
  };
  return auxData
    .filter((a) => !hidden.has(a.data_source))
    .slice()
    .sort((a, b) => rank(a.data_source) - rank(b.data_source) || a.data_source.localeCompare(b.data_source))
    .map((a) => ({
      source: a.data_source,
      title: auxSourceTitle(a.data_source, settings.auxDataSourceReplace),
      rows: a.data_array.map((d) => ({
        name: humanize(d.data_name),
        value: `${d.data_value}${d.data_uom ? ` ${d.data_uom}` : ''}`,
      })),
    }));
}

export interface ImageCard {
  source: string;
  caption: string;
  url: string;
  fileName: string;
}

/** The last path segment: the client ignores the directory the inserter wrote, which means nothing to the server. */
export function baseName(path: string): string {
  const parts = path.split(/[\\/]/);
  return parts[parts.length - 1] ?? path;
}

/** Where the server serves an image file: `{serverRoot}{imagePath}/{file name}`. */
export function imageUrl(path: string, imagePath: string): string {
  return `${serverRoot}${imagePath.replace(/\/$/, '')}/${encodeURIComponent(baseName(path))}`;
}

/** Image records hold (camera name, file path) pairs; one card per pair, in record order. */
export function imageCards(auxData: readonly ExportedAux[], settings: CardSettings): ImageCard[] {
  const sources = new Set(settings.imagesAuxDataSources);
  const out: ImageCard[] = [];
  for (const record of auxData) {
    if (!sources.has(record.data_source)) continue;
    const items = record.data_array;
    for (let i = 0; i + 1 < items.length; i += 2) {
      const path = String(items[i + 1]!.data_value);
      out.push({
        source: record.data_source,
        caption: String(items[i]!.data_value),
        url: imageUrl(path, settings.imagePath),
        fileName: baseName(path),
      });
    }
  }
  return out;
}

/**
 * Whether the event was meant to have pictures but has none to show: it holds a record of an
 * image source (a frame grab was taken) without a single (camera, file) pair. An event without
 * any image record (most of a dive) expected none.
 */
export function missingImages(auxData: readonly ExportedAux[], settings: CardSettings): boolean {
  const sources = new Set(settings.imagesAuxDataSources);
  return auxData.some((record) => sources.has(record.data_source)) && imageCards(auxData, settings).length === 0;
}

/** The Event Options card: every option but the comment, names humanised. */
export function optionRows(event: Pick<LogEvent, 'event_options'>): Array<{ name: string; value: string }> {
  return event.event_options
    .filter((o) => o.event_option_name !== commentOptionName)
    .map((o) => ({ name: humanize(o.event_option_name), value: o.event_option_value }));
}
