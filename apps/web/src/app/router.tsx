import { lazy, type ComponentType } from 'react';
import { Navigate, useParams, useRoutes, type RouteObject } from 'react-router';
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
  return <Navigate to={`${to}/${id ?? ''}`} replace />;
}

/**
 * The route table (docs/screens.md#routes-and-access; all exact matches). One file per screen under
 * routes/ (or a feature): replace a placeholder there, not here.
 */
export const routes: RouteObject[] = [
  {
    element: <AppLayout />,
    children: [
      {
        element: <RedirectIfAuthenticated />,
        children: [{ path: '/login', element: <LoginScreen /> }],
      },
      { path: '/register', element: <RegisterScreen /> },
      { path: '/forgotPassword', element: <ForgotPasswordScreen /> },
      { path: '/resetPassword/:token', element: <ResetPasswordScreen /> },
      { path: '/logout', element: <LogoutRoute /> },
      {
        element: <RequireAuth />,
        children: [
          { path: '/', element: <HomeRoute /> },
          { path: '/profile', element: <ProfileScreen /> },
          { path: '/cruises', element: <CruisesRoute /> },
          { path: '/lowerings', element: <LoweringsRoute /> },
          { path: '/users', element: <UsersScreen /> },
          { path: '/device_keys', element: <DeviceKeysScreen /> },
          { path: '/ships', element: <ShipsScreen /> },
          { path: '/taxa', element: <TaxaScreen /> },
          { path: '/audit', element: <AuditScreen /> },
          { path: '/system', element: <SystemScreen /> },
          { path: '/checklists', element: <ChecklistsScreen /> },
          { path: '/tasks', element: <TasksScreen /> },
          { path: '/event_management', element: <EventManagementRoute /> },
          { path: '/event_templates', element: <EventTemplatesScreen /> },
          { path: '/publication/:kind/:id', element: <PublicationScreen /> },
          { path: '/publication_settings', element: <PublicationSettingsScreen /> },
        ],
      },
      {
        // Also the public archive's screens (docs/public-archive.md#in-the-web-client).
        element: <RequireAuthOrArchive />,
        children: [
          { path: '/cruise_menu', element: <CruiseMenuRoute /> },
          { path: '/review_gallery/:loweringId', element: <ReviewGalleryRoute /> },
          { path: '/review_map/:loweringId', element: <ReviewMapRoute /> },
          { path: '/review_replay/:loweringId', element: <ReviewReplayRoute /> },
          { path: '/dive/:id', element: <DivePermalinkRoute /> },
          { path: '/cruise/:id', element: <CruisePermalinkRoute /> },
          { path: '/report/lowering/:id', element: <LoweringReportRoute /> },
          { path: '/report/cruise/:id', element: <CruiseReportRoute /> },
        ],
      },
      { path: '/lowering_gallery/:id', element: <RedirectWithId to="/review_gallery" /> },
      { path: '/lowering_map/:id', element: <RedirectWithId to="/review_map" /> },
      { path: '/lowering_replay/:id', element: <RedirectWithId to="/review_replay" /> },
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
];

/**
 * The routes under the declarative BrowserRouter (app.tsx): the app uses no loaders or actions,
 * so the data router's code (about 15 kB gzip) stays out of the first load.
 */
export function AppRoutes() {
  return useRoutes(routes);
}
