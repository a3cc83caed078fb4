import { Suspense, type ReactNode } from 'react';
import { useLocation } from 'wouter';
import { LoadingText, statusTexts } from '../../components/status-text';
import { Footer } from './footer';
import { Header } from './header';

/** Header, the screen (max 1200 px, 70 px bottom padding), fixed footer (docs/screens.md#look). */
export function AppLayout({ children }: { children: ReactNode }) {
  // One boundary per screen (the path's first segment): going elsewhere while a screen's code is
  // still loading leaves that boundary behind. On Preact a boundary still waiting for the old
  // screen rendered nothing once it arrived, even with the new screen under it (a blank page).
  const screen = useLocation()[0].split('/')[1] ?? '';
  return (
    <>
      <Header />
      <main className="app-content">
        {/* Screens other than login load on first visit (router.tsx). */}
        <Suspense key={screen} fallback={<LoadingText text={statusTexts.loading} />}>
          {children}
        </Suspense>
      </main>
      <Footer />
    </>
  );
}
