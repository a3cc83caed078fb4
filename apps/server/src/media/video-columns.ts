import type { VideoLinkOut } from './video-index.js';

/** An exported event with its aux records as stored (the events module's EventItem has this shape). */
interface WithAux {
  row: { id: string };
  aux?: ReadonlyArray<{ id: string; event_id: string; data_source: string; data_array: string }> | undefined;
}

/**
 * Each exported event's recording and offset per camera (docs/video.md#exports): JSON gets a
 * `video` list (empty where no camera recorded), CSV the columns of a `video` record
 * (`video.camera_value`, `video.recording_id_value`, `video.offset_ms_value`, `video.url_value`,
 * with `_2`, `_3` for further cameras, as Sealog flattens repeated names).
 */
export function withVideoJson(json: string, links: readonly VideoLinkOut[]): string {
  return `${json.slice(0, -1)},"video":${JSON.stringify(links)}}`;
}

export function withVideoAux<T extends WithAux>(item: T, links: readonly VideoLinkOut[]): T {
  if (links.length === 0) return item;
  const record = {
    id: '',
    event_id: item.row.id,
    data_source: 'video',
    data_array: JSON.stringify(
      links.flatMap((l) => [
        { data_name: 'camera', data_value: l.camera },
        { data_name: 'recording_id', data_value: l.recording_id },
        { data_name: 'offset_ms', data_value: String(l.offset_ms) },
        { data_name: 'url', data_value: l.url },
      ]),
    ),
  };
  return { ...item, aux: [...(item.aux ?? []), record] };
}
