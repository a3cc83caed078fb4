import { useEffect, useRef } from 'react';
import L from 'leaflet';
import 'leaflet/dist/leaflet.css';
import iconRetinaUrl from 'leaflet/dist/images/marker-icon-2x.png';
import iconUrl from 'leaflet/dist/images/marker-icon.png';
import shadowUrl from 'leaflet/dist/images/marker-shadow.png';
import { boundingBoxOf, type TrackPoint } from '@bathylog/shared';
import { escapeHtml, textElement } from '../../../lib/html-text';
import { useSettings } from '../../../lib/settings';
import { Graticule } from './graticule';
import { loadOverlaySettings, tileLayerOf } from './offline-tile-layer';
import './dive-map.css';

/** A position on the map, in decimal degrees. */
export interface MapPosition {
  lat: number;
  lon: number;
}

/** An event drawn as a small circle; a click on it calls `onMarkerClick(id)`. */
export interface DiveMapMarker extends MapPosition {
  id: string;
  /** Shown as a tooltip on hover (e.g. the event value and time). */
  title?: string;
  /** The title stays shown (a printed map's milestone labels). */
  permanent?: boolean;
  /** Where the title stands beside the marker (default above). */
  labelSide?: 'top' | 'bottom' | 'left' | 'right';
}

export interface DiveMapProps {
  /** Map height in pixels: 400 in the milestones editor, 480 on the review map. */
  height: number;
  /** The trackline, every point drawn, with a green start dot and a red end dot. */
  track?: readonly TrackPoint[];
  /** Where the pin stands (selected event, chart hover, replay position); null or absent: no pin. */
  pin?: MapPosition | null;
  /** The pin's popup text. */
  pinPopup?: string;
  /** Event markers (review map). */
  markers?: readonly DiveMapMarker[];
  /** The marker drawn highlighted. */
  selectedMarkerId?: string | null;
  onMarkerClick?: (id: string) => void;
  /** Keep the pin in view, panning when it leaves the map (replay map card). */
  followPin?: boolean;
  /** Accessible name of the map region. */
  label?: string;
  className?: string;
}

/** The popup of the position pin, the words users know (docs/screens.md#review-map). */
export const pinPopupText = 'You are here! :-)';

const pinIcon = L.icon({
  iconUrl,
  iconRetinaUrl,
  shadowUrl,
  iconSize: [25, 41],
  iconAnchor: [12, 41],
  popupAnchor: [1, -34],
  tooltipAnchor: [16, -28],
  shadowSize: [41, 41],
});

const trackStyle = { color: '#ffff00', weight: 2, opacity: 1 };
const markerStyle = { radius: 4, color: '#ffffff', weight: 1, fillColor: '#2a9fd6', fillOpacity: 0.9 };
const selectedMarkerStyle = { ...markerStyle, radius: 6, fillColor: '#ff8800' };

/** Panes from the bottom up: coastlines and graticule under the tiles, the dive above them. */
const panes = { coastline: 'dive-map-coastline', graticule: 'dive-map-graticule' } as const;

/** Shows the whole track (one point: zoom 15 around it). */
function fitTo(map: L.Map, track: readonly TrackPoint[]): void {
  const box = boundingBoxOf(track);
  if (!box) return;
  const bounds = L.latLngBounds([box.south, box.west], [box.north, box.east]);
  if (bounds.getNorthEast().equals(bounds.getSouthWest())) map.setView(bounds.getCenter(), 15);
  else map.fitBounds(bounds, { padding: [20, 20] });
}

interface MapParts {
  map: L.Map;
  renderer: L.Canvas;
  track: L.LayerGroup;
  markers: L.LayerGroup;
  pin: L.Marker | null;
}

/**
 * The one map of the product (Leaflet): the milestones editor, the review map and the replay's
 * map card. Offline first: a packaged coastline layer and a graticule are always there, under the
 * tile layers and overlays the runtime settings name (layers control top-right, scale bottom-left);
 * tiles that cannot load leave no console errors. Before a track arrives the map sits at the
 * configured default location; when a track arrives it is fitted to its bounds.
 */
export function DiveMap({
  height,
  track,
  pin,
  pinPopup = pinPopupText,
  markers,
  selectedMarkerId,
  onMarkerClick,
  followPin = false,
  label = 'Dive map',
  className,
}: DiveMapProps) {
  const settings = useSettings();
  const container = useRef<HTMLDivElement>(null);
  const parts = useRef<MapParts | null>(null);
  const onMarkerClickRef = useRef(onMarkerClick);
  const fittedTrack = useRef<readonly TrackPoint[] | null>(null);
  // The track the map was mounted with: its first view, so nothing is drawn twice on opening.
  const mountTrack = useRef(track);

  useEffect(() => {
    onMarkerClickRef.current = onMarkerClick;
  }, [onMarkerClick]);

  // The map itself, its panes and layers: once per mount.
  useEffect(() => {
    const el = container.current;
    if (!el) return;
    const map = L.map(el, { preferCanvas: true, worldCopyJump: false });
    const first = mountTrack.current;
    if (first && first.length > 0) {
      fitTo(map, first);
      fittedTrack.current = first;
    } else {
      const { lat, lng, zoom } = settings.defaultLocation;
      map.setView([lat, lng], zoom);
    }
    map.createPane(panes.coastline).style.zIndex = '150';
    map.createPane(panes.graticule).style.zIndex = '160';
    map.attributionControl.setPrefix('<a href="https://leafletjs.com">Leaflet</a>');

    let cancelled = false;
    const control = L.control.layers(undefined, undefined, { position: 'topright' }).addTo(map);
    const graticule = new Graticule(panes.graticule).addTo(map);
    control.addOverlay(graticule, 'Graticule');
    void import('./coastline').then(({ coastlineLayer }) => {
      if (cancelled) return;
      const coast = coastlineLayer(panes.coastline).addTo(map);
      control.addOverlay(coast, 'Coastlines');
    });
    const bases = settings.tileLayers;
    const defaultBase = bases.find((b) => b.default) ?? bases[0];
    for (const b of bases) {
      const layer = tileLayerOf(b, 'tilePane');
      control.addBaseLayer(layer, escapeHtml(b.name));
      if (b === defaultBase) layer.addTo(map);
    }
    void loadOverlaySettings(settings.overlayLayers).then((overlays) => {
      if (cancelled) return;
      for (const o of overlays) control.addOverlay(tileLayerOf(o, 'overlayPane'), escapeHtml(o.name));
    });
    L.control.scale({ position: 'bottomleft' }).addTo(map);

    // One canvas for the track, its dots and the markers; Leaflet's default margin around the view
    // (each redraw re-sizes the canvas: a 0.5 margin makes it four times the map's area).
    const renderer = L.canvas({ padding: 0.1 });
    parts.current = {
      map,
      renderer,
      track: L.layerGroup().addTo(map),
      markers: L.layerGroup().addTo(map),
      pin: null,
    };
    // A collapsed card or a modal opening changes the size: keep Leaflet's idea of it right.
    // A map first laid out with no size (a collapsed card) is fitted again once it gets one.
    let wasHidden = el.clientWidth === 0 || el.clientHeight === 0;
    const resize = new ResizeObserver(() => {
      // A map taken out of the page waits for its effect's cleanup (after the next paint), which
      // removes it: laid out again at no size, its canvases would be redrawn after that removal.
      if (!el.isConnected) return;
      map.invalidateSize({ pan: false });
      const hidden = el.clientWidth === 0 || el.clientHeight === 0;
      const shown = fittedTrack.current;
      if (wasHidden && !hidden && shown && shown.length > 0) fitTo(map, shown);
      wasHidden = hidden;
    });
    resize.observe(el);
    return () => {
      cancelled = true;
      resize.disconnect();
      map.remove();
      parts.current = null;
      fittedTrack.current = null;
    };
  }, [settings]);

  // The trackline with its start and end dots; fitted once per new track.
  useEffect(() => {
    const p = parts.current;
    if (!p) return;
    p.track.clearLayers();
    // For scripts and tests: how many points the drawn trackline has.
    container.current?.setAttribute('data-track-points', String(track?.length ?? 0));
    if (!track || track.length === 0) return;
    const latlngs = track.map((t) => L.latLng(t.lat, t.lon));
    // smoothFactor 0: every point is drawn, none simplified away.
    p.track.addLayer(L.polyline(latlngs, { ...trackStyle, renderer: p.renderer, smoothFactor: 0, interactive: false }));
    const dot = (at: L.LatLng, color: string) =>
      L.circleMarker(at, {
        renderer: p.renderer,
        radius: 3,
        color,
        fillColor: color,
        fillOpacity: 1,
        interactive: false,
      });
    p.track.addLayer(dot(latlngs[0]!, '#00ff00'));
    p.track.addLayer(dot(latlngs[latlngs.length - 1]!, '#ff0000'));
    if (fittedTrack.current !== track) {
      fittedTrack.current = track;
      fitTo(p.map, track);
    }
    // `settings`: a new map (new settings) needs its layers drawn again.
  }, [track, settings]);

  // Event markers.
  useEffect(() => {
    const p = parts.current;
    if (!p) return;
    p.markers.clearLayers();
    for (const m of markers ?? []) {
      const selected = m.id === selectedMarkerId;
      const circle = L.circleMarker([m.lat, m.lon], {
        ...(selected ? selectedMarkerStyle : markerStyle),
        renderer: p.renderer,
        bubblingMouseEvents: false,
      });
      // Leaflet reads a string as HTML: the title (an event's stored value) goes in as text.
      if (m.title)
        circle.bindTooltip(textElement(m.title), {
          direction: m.labelSide ?? 'top',
          permanent: m.permanent ?? false,
          // A label above or below clears the half-height of labels beside neighbouring markers.
          ...(m.permanent && (m.labelSide === 'top' || m.labelSide === 'bottom')
            ? { offset: L.point(0, m.labelSide === 'top' ? -10 : 10) }
            : {}),
        });
      circle.on('click', () => onMarkerClickRef.current?.(m.id));
      p.markers.addLayer(circle);
      if (selected) circle.bringToFront();
    }
  }, [markers, selectedMarkerId, settings]);

  // The position pin.
  useEffect(() => {
    const p = parts.current;
    if (!p) return;
    if (!pin) {
      p.pin?.remove();
      p.pin = null;
      return;
    }
    const at = L.latLng(pin.lat, pin.lon);
    if (!p.pin) {
      p.pin = L.marker(at, { icon: pinIcon, alt: 'Position', zIndexOffset: 1000 })
        .bindPopup(textElement(pinPopup))
        .addTo(p.map);
    } else {
      p.pin.setLatLng(at);
      p.pin.setPopupContent(textElement(pinPopup));
    }
    if (followPin && !p.map.getBounds().pad(-0.1).contains(at)) p.map.panTo(at, { animate: false });
  }, [pin, pinPopup, followPin, settings]);

  return (
    <div
      ref={container}
      className={`dive-map${className ? ` ${className}` : ''}`}
      style={{ height }}
      role="region"
      aria-label={label}
    />
  );
}
