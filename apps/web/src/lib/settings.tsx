import { createContext, useContext, useEffect, useMemo, type ReactNode } from 'react';
import { entityNames, type ClientSettings } from '@bathylog/shared';

/** Runtime settings from the server, loaded once at start (see app/app.tsx). */
const SettingsContext = createContext<ClientSettings | null>(null);

/** Provides the settings; the browser tab reads the configured header title, as the header does. */
export function SettingsProvider({ settings, children }: { settings: ClientSettings; children: ReactNode }) {
  useEffect(() => {
    document.title = settings.headerTitle;
  }, [settings.headerTitle]);
  return <SettingsContext.Provider value={settings}>{children}</SettingsContext.Provider>;
}

export function useSettings(): ClientSettings {
  const settings = useContext(SettingsContext);
  if (!settings) throw new Error('useSettings must be used inside SettingsProvider');
  return settings;
}

export type EntityNames = ReturnType<typeof entityNames>;

/** The configured words for cruise and lowering: {cruise, cruises, Cruise, Cruises, lowering, …}. */
export function useEntityNames(): EntityNames {
  const settings = useSettings();
  return useMemo(() => entityNames(settings), [settings]);
}
