import { useEffect, useRef } from 'react';

/** Where the player should be: seconds into its source; a new object seeks again to the same place. */
export interface PlayerPosition {
  seconds: number;
}

export interface VideoPlayerProps {
  /** The media URL (an MP4 or WebM copy, or an HLS playlist when `hls`). */
  src: string;
  hls: boolean;
  position: PlayerPosition | null;
  /** While playing: the second shown now. */
  onPlayingAt?: (seconds: number) => void;
  onEnded?: () => void;
  label: string;
}

/**
 * The recorded video (docs/video.md#playback), its own chunk: a native `<video>` with its
 * controls (keyboard and screen readers included); an HLS playlist through hls.js, loaded only
 * then and only where the browser does not play HLS itself. It seeks when `position` changes and
 * reports where it is while it plays.
 */
export function VideoPlayer({ src, hls, position, onPlayingAt, onEnded, label }: VideoPlayerProps) {
  const ref = useRef<HTMLVideoElement>(null);

  useEffect(() => {
    const video = ref.current;
    if (!video) return;
    let cancelled = false;
    let destroy = () => {};
    if (hls && !video.canPlayType('application/vnd.apple.mpegurl')) {
      void import('hls.js/light').then(({ default: Hls }) => {
        if (cancelled || !Hls.isSupported()) return;
        const player = new Hls();
        player.loadSource(src);
        player.attachMedia(video);
        destroy = () => player.destroy();
      });
    } else {
      video.src = src;
    }
    return () => {
      cancelled = true;
      destroy();
      video.removeAttribute('src');
      video.load();
    };
  }, [src, hls]);

  useEffect(() => {
    const video = ref.current;
    if (!video || !position) return;
    const apply = () => {
      if (Math.abs(video.currentTime - position.seconds) > 0.2) video.currentTime = position.seconds;
    };
    if (video.readyState >= 1) apply();
    else {
      video.addEventListener('loadedmetadata', apply, { once: true });
      return () => video.removeEventListener('loadedmetadata', apply);
    }
  }, [position, src]);

  return (
    <video
      ref={ref}
      className="w-100 bg-black"
      style={{ maxHeight: '50vh' }}
      controls
      muted
      playsInline
      preload="metadata"
      aria-label={label}
      data-testid="video-player"
      onTimeUpdate={(e) => {
        const v = e.currentTarget;
        if (!v.paused && !v.seeking) onPlayingAt?.(v.currentTime);
      }}
      onEnded={onEnded}
    />
  );
}
