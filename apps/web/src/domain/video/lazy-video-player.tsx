import { lazy, Suspense, type ComponentProps } from 'react';
import { LoadingText, statusTexts } from '../../components/status-text';

// The player (and hls.js behind it) is its own chunk, fetched when a video is first shown.
const VideoPlayer = lazy(async () => ({ default: (await import('./player/video-player')).VideoPlayer }));

/** The video player (video-player.tsx), loaded on first use. */
export function LazyVideoPlayer(props: ComponentProps<typeof VideoPlayer>) {
  return (
    <Suspense fallback={<LoadingText text={statusTexts.loading} />}>
      <VideoPlayer {...props} />
    </Suspense>
  );
}
