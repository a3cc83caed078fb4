import { lazy, Suspense } from 'react';
import { Link } from 'wouter';
import { useAuth } from '../../lib/auth';
import { useSettings } from '../../lib/settings';

/**
 * The signed-in header (react-bootstrap's Navbar, its collapsing menus and dropdowns), fetched once
 * a session exists: the login screen never loads it (docs/lean-client.md#what-keeps-the-first-load-small).
 */
export const loadHeaderMenus = () => import('./header-menus');
const SignedInHeader = lazy(async () => ({ default: (await loadHeaderMenus()).SignedInHeader }));

/**
 * The navbar with the configured title alone, as react-bootstrap's Navbar draws it: the signed-out
 * header, and the signed-in one's until its code arrives. Without the class Navbar adds for
 * `variant="dark"`: the theme colours the header, and as no source spells that class out, the build
 * drops Bootstrap's rule for it (prune-css.ts); naming it here would change the menus' grey.
 */
export function HeaderBar({ title }: { title: string }) {
  return (
    <nav className="app-navbar navbar navbar-expand-md">
      <div className="container-fluid">
        <Link to="/" className="navbar-brand">
          {title}
        </Link>
      </div>
    </nav>
  );
}

/** The app's navbar: the configured title, and the menus while someone is signed in. */
export function Header() {
  const auth = useAuth();
  const title = useSettings().headerTitle;
  if (!auth.isAuthenticated) return <HeaderBar title={title} />;
  return (
    <Suspense fallback={<HeaderBar title={title} />}>
      <SignedInHeader title={title} />
    </Suspense>
  );
}
