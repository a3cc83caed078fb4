/**
 * Thumbnails of event images (frame grabs): `GET /sealog-server/files/images/<path>?w=<width>`
 * answers the image scaled to that width (never enlarged), made on first request and cached on
 * disk beside the original. Only these widths are made, so the cache stays bounded.
 */
export const thumbnailWidths = [160, 320, 640, 1280] as const;
export type ThumbnailWidth = (typeof thumbnailWidths)[number];

/** The width the gallery and the replay image panels ask for. */
export const defaultThumbnailWidth: ThumbnailWidth = 320;

export function isThumbnailWidth(value: number): value is ThumbnailWidth {
  return (thumbnailWidths as readonly number[]).includes(value);
}

/** The message of the 400 for any other `w`. */
export const thumbnailWidthMessage = `w must be one of ${thumbnailWidths.join(', ')}`;

/** An image URL with the thumbnail width appended (keeps any query the URL already has). */
export function thumbnailUrl(imageUrl: string, width: ThumbnailWidth = defaultThumbnailWidth): string {
  return `${imageUrl}${imageUrl.includes('?') ? '&' : '?'}w=${width}`;
}
