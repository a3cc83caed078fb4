import type { VideoLink } from '@bathylog/shared';
import { formatOffset } from './video-time';

/**
 * A link per camera that opens the recorded video at the event (docs/video.md#links): the media
 * URL with its `#t=` fragment, in a new tab. Nothing when no camera recorded the moment.
 */
export function VideoLinks({ links, className }: { links: readonly VideoLink[] | undefined; className?: string }) {
  if (!links || links.length === 0) return null;
  return (
    <div className={className} data-testid="video-links">
      <i className="bi bi-camera-video me-1" aria-hidden="true" />
      <span className="me-1">Video:</span>
      {links.map((link, i) => (
        <span key={link.camera}>
          {i > 0 && ', '}
          <a href={link.url} target="_blank" rel="noopener noreferrer">
            {link.camera} at {formatOffset(link.offset_ms)}
          </a>
        </span>
      ))}
    </div>
  );
}
