// hls.js ships its light build (no subtitles, alternate audio or DRM: what a dive's proxy needs)
// without types of its own; it has the full build's API.
declare module 'hls.js/light' {
  export { default } from 'hls.js';
}
