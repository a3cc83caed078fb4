import { Outlet } from 'react-router';
import { Footer } from './footer';
import { Header } from './header';

/** Header, the screen (max 1200 px, 70 px bottom padding), fixed footer (seed 000 §2). */
export function AppLayout() {
  return (
    <>
      <Header />
      <main className="app-content">
        <Outlet />
      </main>
      <Footer />
    </>
  );
}
