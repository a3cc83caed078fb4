import { Suspense } from 'react';
import { Outlet } from 'react-router';
import { LoadingText, statusTexts } from '../../components/status-text';
import { Footer } from './footer';
import { Header } from './header';

/** Header, the screen (max 1200 px, 70 px bottom padding), fixed footer (seed 000 §2). */
export function AppLayout() {
  return (
    <>
      <Header />
      <main className="app-content">
        {/* Screens other than login load on first visit (router.tsx). */}
        <Suspense fallback={<LoadingText text={statusTexts.loading} />}>
          <Outlet />
        </Suspense>
      </main>
      <Footer />
    </>
  );
}
