import L from 'leaflet';
import { feature } from 'topojson-client';
import type { GeometryCollection, Topology } from 'topojson-specification';
import landUrl from 'world-atlas/land-50m.json?url';

/**
 * Land masses from the packaged Natural Earth 1:50m dataset (world-atlas), so a ship without a
 * tile server still sees coastlines. This module (and the ~170 kB gzip dataset it fetches from
 * the client's own server) loads only when a map is shown.
 */
let land: Promise<GeoJSON.GeoJsonObject> | null = null;

function loadLand(): Promise<GeoJSON.GeoJsonObject> {
  land ??= fetch(landUrl)
    .then((res) => {
      if (!res.ok) throw new Error(`Coastlines: ${res.status}`);
      return res.json() as Promise<Topology<{ land: GeometryCollection }>>;
    })
    .then((topology) => feature(topology, topology.objects.land) as GeoJSON.GeoJsonObject)
    .catch((err: unknown) => {
      land = null; // try again with the next map
      throw err;
    });
  return land;
}

/** The coastline layer, filled once the dataset has loaded. */
export function coastlineLayer(pane: string): L.GeoJSON {
  const layer = L.geoJSON(undefined, {
    pane,
    interactive: false,
    // Leaflet's default margin: each redraw re-sizes the canvas, 2x2 the map with padding 0.5.
    renderer: L.canvas({ pane, padding: 0.1 }),
    style: { color: '#9a9a9a', weight: 1, fillColor: '#3b3b3b', fillOpacity: 1 },
  } as L.GeoJSONOptions);
  loadLand().then(
    (data) => layer.addData(data),
    (err: unknown) => console.warn('Coastlines could not be loaded', err),
  );
  return layer;
}
