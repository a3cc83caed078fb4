import L from 'leaflet';
import type { TileLayer as TileLayerSetting } from '@bathylog/shared';
import { attributionHtml } from '../../../lib/html-text';
import { fetchOffPage } from './tile-protocol';

/**
 * Tile layers that never fill the console with errors when their server cannot be reached (ships
 * are often offline): each tile is fetched in the map worker and shown from a blob URL; a tile
 * that cannot be had stays empty and the packaged coastlines and graticule underneath show
 * through. A server that answers without CORS headers is switched to plain <img> tiles (its tiles
 * load the ordinary way from then on).
 */
interface OfflineFirst {
  direct: boolean;
}

function createTileOffPage(
  layer: L.TileLayer & OfflineFirst,
  coords: L.Coords,
  done: L.DoneCallback,
  directTile: (coords: L.Coords, done: L.DoneCallback) => HTMLElement,
): HTMLElement {
  if (layer.direct) return directTile(coords, done);
  const tile = document.createElement('img');
  tile.alt = '';
  tile.setAttribute('role', 'presentation');
  const url = layer.getTileUrl(coords);
  void fetchOffPage(url, 'tile').then((result) => {
    if (result.ok) {
      const objectUrl = URL.createObjectURL(result.body as Blob);
      const settle = (err?: Error) => {
        URL.revokeObjectURL(objectUrl);
        done(err, tile);
      };
      tile.onload = () => settle();
      tile.onerror = () => settle(new Error(`Not an image: ${url}`));
      tile.src = objectUrl;
      return;
    }
    if (result.reason === 'no-cors') {
      layer.direct = true;
      tile.onload = () => done(undefined, tile);
      tile.onerror = () => done(new Error(`Tile failed: ${url}`), tile);
      tile.src = url;
      return;
    }
    done(new Error(`Tile unavailable (${result.reason}): ${url}`), tile);
  });
  return tile;
}

class OfflineTileLayer extends L.TileLayer implements OfflineFirst {
  direct = false;

  override createTile(coords: L.Coords, done: L.DoneCallback): HTMLElement {
    return createTileOffPage(this, coords, done, (c, d) => super.createTile(c, d));
  }
}

class OfflineWmsLayer extends L.TileLayer.WMS implements OfflineFirst {
  direct = false;

  override createTile(coords: L.Coords, done: L.DoneCallback): HTMLElement {
    return createTileOffPage(this, coords, done, (c, d) => super.createTile(c, d));
  }
}

/** A base layer or overlay of the runtime settings (docs/screens.md#map-layers). */
export function tileLayerOf(setting: TileLayerSetting, pane: string): L.TileLayer {
  const url = setting.url.trim();
  // Leaflet shows the attribution as HTML; an overlay list fetched from another server could say anything.
  const common = { attribution: attributionHtml(setting.attribution ?? ''), pane };
  if (setting.wms) {
    return new OfflineWmsLayer(url, {
      ...common,
      layers: setting.layers ?? '',
      transparent: setting.transparent ?? false,
      format: setting.transparent ? 'image/png' : 'image/jpeg',
    });
  }
  return new OfflineTileLayer(url, {
    ...common,
    tms: setting.tms ?? false,
    zoomOffset: setting.zoomOffset ?? 0,
    maxNativeZoom: setting.maxNativeZoom,
  });
}

/**
 * The overlay layers of the settings: an explicit list, or a URL answering one. A list that cannot
 * be fetched gives no overlays (docs/screens.md#map-layers), logged as a warning.
 */
export async function loadOverlaySettings(value: TileLayerSetting[] | string): Promise<TileLayerSetting[]> {
  if (Array.isArray(value)) return value;
  if (value.trim() === '') return [];
  const result = await fetchOffPage(value.trim(), 'json');
  if (result.ok && Array.isArray(result.body)) {
    return (result.body as unknown[]).filter(
      (l): l is TileLayerSetting =>
        typeof l === 'object' &&
        l !== null &&
        typeof (l as TileLayerSetting).name === 'string' &&
        typeof (l as TileLayerSetting).url === 'string',
    );
  }
  console.warn(`Overlay layers: could not load the list from ${value}`);
  return [];
}
