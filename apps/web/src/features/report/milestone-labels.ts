export type LabelSide = 'left' | 'right' | 'top' | 'bottom';

interface Position {
  lat: number;
  lon: number;
}

/**
 * Where each milestone's printed label stands beside its marker. A label points into the track's
 * extent (a marker at the west end is labelled on its right), so the map's edge does not cut it;
 * a marker close to an earlier one (launch and recovery, or the descent's start and the bottom,
 * often lie on one spot) takes the next free side: above, below, then outward.
 */
export function milestoneLabelSides(markers: readonly Position[], track: readonly Position[]): LabelSide[] {
  const all = track.length > 0 ? track : markers;
  const lons = all.map((p) => p.lon);
  const lats = all.map((p) => p.lat);
  const [west, east] = [Math.min(...lons), Math.max(...lons)];
  const [south, north] = [Math.min(...lats), Math.max(...lats)];
  // "Close": within a fifth of the track's extent each way (a label is about that wide on the page).
  const near = (a: Position, b: Position) =>
    Math.abs(a.lon - b.lon) <= (east - west) / 5 && Math.abs(a.lat - b.lat) <= (north - south) / 5;
  const sides: LabelSide[] = [];
  markers.forEach((m, i) => {
    const inward: LabelSide = m.lon <= (west + east) / 2 ? 'right' : 'left';
    const outward: LabelSide = inward === 'right' ? 'left' : 'right';
    const taken = new Set(markers.slice(0, i).flatMap((other, j) => (near(m, other) ? [sides[j]!] : [])));
    const order: LabelSide[] = [inward, 'top', 'bottom', outward];
    sides.push(order.find((side) => !taken.has(side)) ?? inward);
  });
  return sides;
}
