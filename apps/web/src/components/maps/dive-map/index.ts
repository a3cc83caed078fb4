/**
 * The map of the product (Leaflet, offline first). Import it from routes that are loaded lazily,
 * so Leaflet stays out of the first load.
 */
export { DiveMap, pinPopupText, type DiveMapMarker, type DiveMapProps, type MapPosition } from './dive-map';
