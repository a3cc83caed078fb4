/**
 * The cruise menu's address, which other screens link to (the review breadcrumb opens the menu on
 * its cruise and lowering) and the menu reads back on arrival.
 */
export interface MenuSelection {
  cruiseId: string | null;
  loweringId: string | null;
}

/** `/cruise_menu?cruise=<id>&lowering=<id>`: the cruise menu opened on that cruise and lowering. */
export function cruiseMenuPath(selection: MenuSelection): string {
  const params = new URLSearchParams();
  if (selection.cruiseId) params.set('cruise', selection.cruiseId);
  if (selection.cruiseId && selection.loweringId) params.set('lowering', selection.loweringId);
  const query = params.toString();
  return query ? `/cruise_menu?${query}` : '/cruise_menu';
}

/** The selection a cruise menu link names (`cruiseMenuPath`), or null when it names no cruise. */
export function selectionFromParams(params: URLSearchParams): MenuSelection | null {
  const cruiseId = params.get('cruise');
  return cruiseId ? { cruiseId, loweringId: params.get('lowering') } : null;
}
