import { createBrowserRouter, Navigate, useParams, type RouteObject } from 'react-router';
import { ForgotPasswordScreen } from '../features/auth/forgot-password-screen';
import { LoginScreen } from '../features/auth/login-screen';
import { LogoutRoute } from '../features/auth/logout-route';
import { RegisterScreen } from '../features/auth/register-screen';
import { ResetPasswordScreen } from '../features/auth/reset-password-screen';
import { EventTemplatesScreen } from '../features/event-templates/event-templates-screen';
import { ProfileScreen } from '../features/profile/profile-screen';
import { TasksScreen } from '../features/tasks/tasks-screen';
import { UsersScreen } from '../features/users/users-screen';
import { RedirectIfAuthenticated, RequireAuth } from './guards';
import { AppLayout } from './layout/app-layout';
import { CruiseMenuRoute } from './routes/cruise-menu';
import { CruisesRoute } from './routes/cruises';
import { EventManagementRoute } from './routes/event-management';
import { HomeRoute } from './routes/home';
import { LoweringsRoute } from './routes/lowerings';
import { NotFoundRoute } from './routes/not-found';
import { ReviewGalleryRoute } from './routes/review-gallery';
import { ReviewMapRoute } from './routes/review-map';
import { ReviewReplayRoute } from './routes/review-replay';

/** Old Sealog bookmarks (/lowering_map/:id …) land on the seed's review routes (client-behaviour §1 #2). */
function RedirectWithId({ to }: { to: string }) {
  const { id } = useParams();
  return <Navigate to={`${to}/${id ?? ''}`} replace />;
}

/**
 * The route table of seed 000 §2 (all exact matches). One file per screen under routes/ (or a
 * feature): replace a placeholder there, not here.
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
          { path: '/cruise_menu', element: <CruiseMenuRoute /> },
          { path: '/cruises', element: <CruisesRoute /> },
          { path: '/lowerings', element: <LoweringsRoute /> },
          { path: '/users', element: <UsersScreen /> },
          { path: '/tasks', element: <TasksScreen /> },
          { path: '/event_management', element: <EventManagementRoute /> },
          { path: '/event_templates', element: <EventTemplatesScreen /> },
          { path: '/review_gallery/:loweringId', element: <ReviewGalleryRoute /> },
          { path: '/review_map/:loweringId', element: <ReviewMapRoute /> },
          { path: '/review_replay/:loweringId', element: <ReviewReplayRoute /> },
        ],
      },
      { path: '/lowering_gallery/:id', element: <RedirectWithId to="/review_gallery" /> },
      { path: '/lowering_map/:id', element: <RedirectWithId to="/review_map" /> },
      { path: '/lowering_replay/:id', element: <RedirectWithId to="/review_replay" /> },
      { path: '*', element: <NotFoundRoute /> },
    ],
  },
];

export function createAppRouter() {
  return createBrowserRouter(routes);
}
