import { lazy, Suspense } from 'react';
import { Container, Navbar } from 'react-bootstrap';
import { Link } from 'react-router';
import { useAuth } from '../../lib/auth';
import { useSettings } from '../../lib/settings';

/** The signed-in menus, fetched once a session exists (the login screen never loads them). */
export const loadHeaderMenus = () => import('./header-menus');
const HeaderMenus = lazy(async () => ({ default: (await loadHeaderMenus()).HeaderMenus }));

/** The app's navbar: the configured title, and the menus while someone is signed in. */
export function Header() {
  const auth = useAuth();
  const settings = useSettings();
  return (
    <Navbar expand="md" variant="dark" className="app-navbar" collapseOnSelect>
      <Container fluid>
        <Navbar.Brand as={Link} to="/">
          {settings.headerTitle}
        </Navbar.Brand>
        {auth.isAuthenticated && (
          <Suspense fallback={null}>
            <HeaderMenus />
          </Suspense>
        )}
      </Container>
    </Navbar>
  );
}
