import { thumbnailUrl, type EventAuxData } from '@bathylog/shared';
import { baseName, imageUrl } from '../../../domain/events/lib/event-format';

/** Images per page (docs/screens.md#review-gallery); the first is the default. */
export const galleryPageSizes = [16, 32, 48, 64, 80] as const;
export const defaultGalleryPageSize = galleryPageSizes[0];
/** Page and page-size changes apply after this rest (docs/screens.md#review-gallery). */
export const galleryDelayMs = 500;

export interface GalleryImage {
  eventId: string;
  camera: string;
  fileName: string;
  /** The original (previews, downloads). */
  url: string;
  /** The server thumbnail shown in the grid. */
  thumbnail: string;
}

export interface GalleryTab {
  camera: string;
  images: GalleryImage[];
}

/**
 * Image records → one tab per camera name (the first value of each (name, path) pair, not the
 * data source), tabs and images in first-seen order (docs/screens.md#review-gallery).
 */
export function galleryTabs(records: readonly EventAuxData[], imagePath: string): GalleryTab[] {
  const tabs = new Map<string, GalleryImage[]>();
  for (const record of records) {
    const items = record.data_array;
    for (let i = 0; i + 1 < items.length; i += 2) {
      const camera = String(items[i]!.data_value);
      const path = String(items[i + 1]!.data_value);
      const url = imageUrl(path, imagePath);
      const list = tabs.get(camera) ?? [];
      list.push({ eventId: record.event_id, camera, fileName: baseName(path), url, thumbnail: thumbnailUrl(url) });
      tabs.set(camera, list);
    }
  }
  return [...tabs].map(([camera, images]) => ({ camera, images }));
}

/** The page that keeps the first visible image on screen when the page size changes. */
export function pageKeepingFirst(page: number, oldSize: number, newSize: number): number {
  return Math.floor(((page - 1) * oldSize) / newSize) + 1;
}
