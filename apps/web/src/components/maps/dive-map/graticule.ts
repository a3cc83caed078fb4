import L from 'leaflet';
import { textElement } from '../../../lib/html-text';

/** Line spacings in degrees, coarse to fine; the finest one giving at least 3 lines is used. */
const steps = [30, 20, 10, 5, 2, 1, 0.5, 0.25, 0.1, 0.05, 0.02, 0.01, 0.005, 0.002, 0.001, 0.0005];

/** The finest spacing that puts at most `maxLines` lines across `span` degrees. */
export function graticuleStep(span: number, maxLines = 6): number {
  let chosen = steps[0]!;
  for (const s of steps) {
    if (span / s > maxLines) break;
    chosen = s;
  }
  return chosen;
}

function decimalsOf(step: number): number {
  const text = String(step);
  const dot = text.indexOf('.');
  return dot < 0 ? 0 : text.length - dot - 1;
}

/** `23.55° N`, `45.1° W`: a graticule label. */
export function formatGraticuleLabel(value: number, axis: 'lat' | 'lon', step: number): string {
  const hemisphere = axis === 'lat' ? (value < 0 ? 'S' : 'N') : value < 0 ? 'W' : 'E';
  const abs = Math.abs(value).toFixed(decimalsOf(step));
  return Number(abs) === 0 ? '0°' : `${abs}° ${hemisphere}`;
}

/**
 * Latitude/longitude lines with labels at the map's left and bottom edges, redrawn when the view
 * moves: part of the offline map, drawn under the tile layers.
 */
export class Graticule extends L.LayerGroup {
  private readonly paneName: string;
  private readonly renderer: L.Renderer;

  constructor(pane: string) {
    super([], { pane });
    this.paneName = pane;
    this.renderer = L.canvas({ pane });
  }

  override onAdd(map: L.Map): this {
    super.onAdd(map);
    map.on('moveend zoomend resize', this.redraw, this);
    this.redraw();
    return this;
  }

  override onRemove(map: L.Map): this {
    map.off('moveend zoomend resize', this.redraw, this);
    this.clearLayers();
    super.onRemove(map);
    return this;
  }

  private redraw(): void {
    const map = (this as unknown as { _map?: L.Map })._map;
    if (!map) return;
    this.clearLayers();
    const view = map.getBounds();
    const south = Math.max(-85, view.getSouth());
    const north = Math.min(85, view.getNorth());
    const west = Math.max(-180, view.getWest());
    const east = Math.min(180, view.getEast());
    if (!(north > south && east > west)) return;
    const size = map.getSize();
    // About one line per 120 px on each axis, so labels never crowd.
    const latStep = graticuleStep(north - south, Math.max(2, Math.floor(size.y / 120)));
    const lonStep = graticuleStep(east - west, Math.max(2, Math.floor(size.x / 120)));
    const line = {
      color: '#8a8a8a',
      weight: 1,
      opacity: 0.5,
      interactive: false,
      renderer: this.renderer,
      pane: this.paneName,
    };
    const label = (text: string, at: L.LatLng) =>
      L.marker(at, {
        pane: this.paneName,
        interactive: false,
        keyboard: false,
        icon: L.divIcon({
          className: 'dive-map-graticule-label',
          html: textElement(text),
          iconSize: [0, 0],
          iconAnchor: [0, 0],
        }),
      });
    // Latitude labels on the left edge below the zoom buttons; longitude labels along the top
    // between the zoom buttons and the layers control (the bottom holds scale and attribution).
    for (let lat = Math.ceil(south / latStep) * latStep; lat <= north; lat += latStep) {
      this.addLayer(
        L.polyline(
          [
            [lat, west],
            [lat, east],
          ],
          line,
        ),
      );
      const y = map.latLngToContainerPoint([lat, west]).y;
      if (y > 90 && y < size.y - 40)
        this.addLayer(label(formatGraticuleLabel(lat, 'lat', latStep), map.containerPointToLatLng([4, y - 8])));
    }
    for (let lon = Math.ceil(west / lonStep) * lonStep; lon <= east; lon += lonStep) {
      this.addLayer(
        L.polyline(
          [
            [south, lon],
            [north, lon],
          ],
          line,
        ),
      );
      const x = map.latLngToContainerPoint([north, lon]).x;
      if (x > 60 && x < size.x - 110)
        this.addLayer(label(formatGraticuleLabel(lon, 'lon', lonStep), map.containerPointToLatLng([x + 3, 4])));
    }
  }
}
