import type { ClientSettings } from './schemas/client-settings.js';

// Its own module, free of zod: the app shell needs these words before any schema is loaded.

/** The words for cruise and lowering, singular and plural, lower case (configurable). */
export function entityNames(settings: Pick<ClientSettings, 'customCruiseName' | 'customLoweringName'>) {
  const [cruise, cruises] = settings.customCruiseName ?? ['cruise', 'cruises'];
  const [lowering, lowerings] = settings.customLoweringName ?? ['lowering', 'lowerings'];
  const cap = (s: string) => s.charAt(0).toUpperCase() + s.slice(1);
  return {
    cruise,
    cruises,
    lowering,
    lowerings,
    Cruise: cap(cruise),
    Cruises: cap(cruises),
    Lowering: cap(lowering),
    Lowerings: cap(lowerings),
  };
}
