import type { QueryClient } from '@tanstack/react-query';
import { profileQuery } from '../api/auth';
import { readsNoTemplates } from '../api/early-gets';
import { readSession, sessionKeyOf } from '../lib/session';
import { loadFooterStatus } from './layout/footer';
import { loadHeaderMenus } from './layout/header';

/**
 * The Bootstrap rules and theme of the screens beyond the login screen (bootstrap-screens.css),
 * loaded with every lazily loaded screen (router.tsx). Loaded from here, it is in the `app` chunk's
 * style sheet, which a stored session preloads (chunk-groups.ts).
 */
export const loadScreensStyles = () => import('./bootstrap-screens.css');

/** The console's route module, as router.tsx loads it (the same import, so it is fetched once). */
export const loadHomeRoute = () => import('./routes/home');

/**
 * Starts at once, side by side, what the first screen of a stored session will ask for, instead
 * of one after another as each component renders (a ship's link has 600 ms round
 * trips). The settings are already on their way (a preload link in index.html); here: the
 * profile, the signed-in header and footer, and on `/` the console's code and its templates. The
 * components then find the answers in the query cache or in flight. The login screen needs none
 * of it.
 */
export function startFirstScreen(queryClient: QueryClient, pathname: string): void {
  const session = readSession();
  if (!session) return;
  void queryClient.prefetchQuery(profileQuery(sessionKeyOf(session)));
  void loadHeaderMenus();
  void loadFooterStatus();
  if (pathname !== '/') return;
  void loadHomeRoute();
  // A watcher's console shows no template buttons, and the server would refuse them the list.
  if (readsNoTemplates(session.id)) return;
  void import('../api/event-templates').then(({ eventTemplatesQuery }) =>
    queryClient.prefetchQuery(eventTemplatesQuery()),
  );
}
