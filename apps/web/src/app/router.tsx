import { lazy, type ComponentType, type ReactNode } from 'react';
import { Redirect, Route, Switch, useParams } from 'wouter';
import { LoginScreen } from '../features/auth/login-screen';
import { LogoutRoute } from '../features/auth/logout-route';
import { loadHomeRoute, loadScreensStyles } from './first-screen';
import { RedirectIfAuthenticated, RequireAuth, RequireAuthOrArchive } from './guards';
import { AppLayout } from './layout/app-layout';
import { NotFoundRoute } from './routes/not-found';

/**
 * A screen loaded on first visit, so the first load (the login screen on a ship's slow link)
 * carries only the shell. AppLayout's Suspense shows "Loading..." meanwhile.
 */
function lazyScreen<M extends Record<string, unknown>>(load: () => Promise<M>, name: keyof M & string) {
  return lazy(async () => {
    const [module] = await Promise.all([load(), loadScreensStyles()]);
    return { default: module[name] as ComponentType };
  });
}

const RegisterScreen = lazyScreen(() => import('../features/auth/register-screen'), 'RegisterScreen');
const ForgotPasswordScreen = lazyScreen(
  () => import('../features/auth/forgot-password-screen'),
  'ForgotPasswordScreen',
);
const ResetPasswordScreen = lazyScreen(() => import('../features/auth/reset-password-screen'), 'ResetPasswordScreen');
const EventTemplatesScreen = lazyScreen(
  () => import('../features/event-templates/event-templates-screen'),
  'EventTemplatesScreen',
);
const ProfileScreen = lazyScreen(() => import('../features/profile/profile-screen'), 'ProfileScreen');
const TasksScreen = lazyScreen(() => import('../features/tasks/tasks-screen'), 'TasksScreen');
const UsersScreen = lazyScreen(() => import('../features/users/users-screen'), 'UsersScreen');
const DeviceKeysScreen = lazyScreen(() => import('../features/device-keys/device-keys-screen'), 'DeviceKeysScreen');
const ChecklistsScreen = lazyScreen(() => import('../features/checklists/checklists-screen'), 'ChecklistsScreen');
const ShipsScreen = lazyScreen(() => import('../features/ships/ships-screen'), 'ShipsScreen');
const TaxaScreen = lazyScreen(() => import('../features/taxa/taxa-screen'), 'TaxaScreen');
const SystemScreen = lazyScreen(() => import('../features/aux-managers/aux-managers-screen'), 'SystemScreen');
const AuditScreen = lazyScreen(() => import('../features/audit/audit-screen'), 'AuditScreen');
const PublicationScreen = lazyScreen(() => import('../features/publication/publication-screen'), 'PublicationScreen');
const PublicationSettingsScreen = lazyScreen(
  () => import('../features/publication/publication-settings-screen'),
  'PublicationSettingsScreen',
);
const CruiseMenuRoute = lazyScreen(() => import('./routes/cruise-menu'), 'CruiseMenuRoute');
const CruisesRoute = lazyScreen(() => import('./routes/cruises'), 'CruisesRoute');
const EventManagementRoute = lazyScreen(() => import('./routes/event-management'), 'EventManagementRoute');
const HomeRoute = lazyScreen(loadHomeRoute, 'HomeRoute');
const LoweringsRoute = lazyScreen(() => import('./routes/lowerings'), 'LoweringsRoute');
const ReviewGalleryRoute = lazyScreen(() => import('./routes/review-gallery'), 'ReviewGalleryRoute');
const ReviewMapRoute = lazyScreen(() => import('./routes/review-map'), 'ReviewMapRoute');
const ReviewReplayRoute = lazyScreen(() => import('./routes/review-replay'), 'ReviewReplayRoute');
const DivePermalinkRoute = lazyScreen(() => import('./routes/permalinks'), 'DivePermalinkRoute');
const CruisePermalinkRoute = lazyScreen(() => import('./routes/permalinks'), 'CruisePermalinkRoute');
const LoweringReportRoute = lazyScreen(() => import('./routes/report'), 'LoweringReportRoute');
const CruiseReportRoute = lazyScreen(() => import('./routes/report'), 'CruiseReportRoute');

/** Old Sealog bookmarks (/lowering_map/:id …) land on the review routes (docs/screens.md#old-review-links). */
function RedirectWithId({ to }: { to: string }) {
  const { id } = useParams();
  return <Redirect to={`${to}/${id ?? ''}`} replace />;
}

/** A group of routes behind one guard (none: open to anyone). */
interface RouteGroup {
  guard?: ComponentType<{ children: ReactNode }>;
  routes: [path: string, screen: ComponentType][];
}

const OldGallery = () => <RedirectWithId to="/review_gallery" />;
const OldMap = () => <RedirectWithId to="/review_map" />;
const OldReplay = () => <RedirectWithId to="/review_replay" />;

/**
 * The route table (docs/screens.md#routes-and-access; all exact matches). One file per screen under
 * routes/ (or a feature): replace a placeholder there, not here.
 */
export const routes: RouteGroup[] = [
  { guard: RedirectIfAuthenticated, routes: [['/login', LoginScreen]] },
  {
    routes: [
      ['/register', RegisterScreen],
      ['/forgotPassword', ForgotPasswordScreen],
      ['/resetPassword/:token', ResetPasswordScreen],
      ['/logout', LogoutRoute],
    ],
  },
  {
    guard: RequireAuth,
    routes: [
      ['/', HomeRoute],
      ['/profile', ProfileScreen],
      ['/cruises', CruisesRoute],
      ['/lowerings', LoweringsRoute],
      ['/users', UsersScreen],
      ['/device_keys', DeviceKeysScreen],
      ['/ships', ShipsScreen],
      ['/taxa', TaxaScreen],
      ['/audit', AuditScreen],
      ['/system', SystemScreen],
      ['/checklists', ChecklistsScreen],
      ['/tasks', TasksScreen],
      ['/event_management', EventManagementRoute],
      ['/event_templates', EventTemplatesScreen],
      ['/publication/:kind/:id', PublicationScreen],
      ['/publication_settings', PublicationSettingsScreen],
    ],
  },
  {
    // Also the public archive's screens (docs/public-archive.md#in-the-web-client).
    guard: RequireAuthOrArchive,
    routes: [
      ['/cruise_menu', CruiseMenuRoute],
      ['/review_gallery/:loweringId', ReviewGalleryRoute],
      ['/review_map/:loweringId', ReviewMapRoute],
      ['/review_replay/:loweringId', ReviewReplayRoute],
      ['/dive/:id', DivePermalinkRoute],
      ['/cruise/:id', CruisePermalinkRoute],
      ['/report/lowering/:id', LoweringReportRoute],
      ['/report/cruise/:id', CruiseReportRoute],
    ],
  },
  {
    routes: [
      ['/lowering_gallery/:id', OldGallery],
      ['/lowering_map/:id', OldMap],
      ['/lowering_replay/:id', OldReplay],
    ],
  },
];

/**
 * The routes in the layout (wouter, on the browser's history: the app uses no loaders or actions,
 * and React Router's code was about 13 kB gzip of the first load, wouter's is 2). The first route
 * whose pattern matches is drawn (case-insensitive, a trailing slash allowed), else Not found.
 */
export function AppRoutes() {
  return (
    <AppLayout>
      <Switch>
        {routes.flatMap(({ guard: Guard, routes: group }) =>
          group.map(([path, Screen]) => (
            <Route key={path} path={path}>
              {Guard ? (
                <Guard>
                  <Screen />
                </Guard>
              ) : (
                <Screen />
              )}
            </Route>
          )),
        )}
        <Route>
          <NotFoundRoute />
        </Route>
      </Switch>
    </AppLayout>
  );
}
