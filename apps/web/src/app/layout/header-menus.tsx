// The icons (drawn as CSS masks) travel with the signed-in screens' chunk: every screen but the
// login screen loads it, and the login screen draws none (docs/lean-client.md#what-keeps-the-first-load-small).
import 'bootstrap-icons/font/bootstrap-icons.min.css';
import { Container, Nav, Navbar, NavDropdown } from 'react-bootstrap';
import { Link, useLocation } from 'wouter';
import { capabilityRoles, type Role } from '@bathylog/shared';
import { useToggleAsnap } from '../../api/custom-vars';
import { PendingEventsBadge } from '../../features/event-log/components/pending-events-badge';
import { errorMessage } from '../../api/client';
import { useAuth } from '../../lib/auth';
import { useEntityNames, useSettings } from '../../lib/settings';

interface MenuItem {
  label: string;
  to?: string;
  roles: Role[];
  /** Hidden when event logging is disabled by configuration. */
  loggingOnly?: boolean;
  action?: 'toggleAsnap';
}

/** System Management dropdown roles (docs/screens.md#system-management-menu). */
export const systemManagementRoles: Role[] = capabilityRoles.systemManagement;

/** Items in the order users know (docs/screens.md#system-management-menu). */
export function systemManagementItems(names: { Cruises: string; Lowerings: string }): MenuItem[] {
  return [
    { label: names.Cruises, to: '/cruises', roles: capabilityRoles.cruiseManagement },
    { label: 'Event Management', to: '/event_management', roles: capabilityRoles.eventManagement },
    {
      label: 'Event Templates',
      to: '/event_templates',
      roles: capabilityRoles.eventTemplates,
      loggingOnly: true,
    },
    { label: names.Lowerings, to: '/lowerings', roles: capabilityRoles.cruiseManagement },
    { label: 'Tasks', to: '/tasks', roles: capabilityRoles.adminOnly },
    { label: 'Users', to: '/users', roles: capabilityRoles.cruiseManagement },
    { label: 'Device Keys', to: '/device_keys', roles: capabilityRoles.adminOnly },
    { label: 'Ship to Shore', to: '/ships', roles: capabilityRoles.adminOnly },
    { label: 'Taxa', to: '/taxa', roles: capabilityRoles.adminOnly },
    { label: 'Audit Trail', to: '/audit', roles: capabilityRoles.adminOnly },
    { label: 'System', to: '/system', roles: capabilityRoles.adminOnly },
    { label: 'Checklists', to: '/checklists', roles: capabilityRoles.adminOnly, loggingOnly: true },
    { label: 'Publication', to: '/publication_settings', roles: capabilityRoles.adminOnly },
    { label: 'Toggle ASNAP', roles: capabilityRoles.adminOnly, loggingOnly: true, action: 'toggleAsnap' },
  ];
}

/** The signed-in header: the title and the menus (header.tsx draws the title alone until it loads). */
export function SignedInHeader({ title }: { title: string }) {
  return (
    <Navbar expand="md" variant="dark" className="app-navbar" collapseOnSelect>
      <Container fluid>
        <Navbar.Brand as={Link} to="/">
          {title}
        </Navbar.Brand>
        <HeaderMenus />
      </Container>
    </Navbar>
  );
}

/**
 * The signed-in part of the header: pending-events badge, review link, System Management and the
 * user menu. Loaded only once someone is signed in (header.tsx), so the login screen does not
 * carry the navbar's collapse, the dropdowns (Popper), the offline queue or the custom-vars API.
 */
export function HeaderMenus() {
  const auth = useAuth();
  const settings = useSettings();
  const names = useEntityNames();
  const [, navigate] = useLocation();
  const toggleAsnap = useToggleAsnap();
  const logging = !settings.disableEventLogging;

  const items = systemManagementItems(names).filter(
    (item) => auth.hasRole(...item.roles) && (logging || !item.loggingOnly),
  );
  const showSystemMenu = auth.hasRole(...systemManagementRoles) && items.length > 0;
  const fullname = auth.profile?.fullname ?? '';

  const switchToGuest = async () => {
    try {
      await auth.login({ username: 'guest', password: '' });
      navigate('/');
    } catch (err) {
      console.warn('Switch to Guest failed:', errorMessage(err));
    }
  };

  return (
    <>
      <PendingEventsBadge />
      <Navbar.Toggle aria-controls="app-navbar-nav" />
      <Navbar.Collapse id="app-navbar-nav" className="justify-content-end">
        <Nav>
          {logging && (
            <Nav.Link as={Link} to="/cruise_menu" eventKey="review">
              Review {names.Cruises}/{names.Lowerings}
            </Nav.Link>
          )}
          {showSystemMenu && (
            <NavDropdown title="System Management" id="system-management-menu" align="end">
              {items.map((item) =>
                item.action === 'toggleAsnap' ? (
                  <NavDropdown.Item
                    key={item.label}
                    as="button"
                    onClick={() =>
                      toggleAsnap.mutate(undefined, {
                        onError: (err) => console.warn('Toggle ASNAP failed:', errorMessage(err)),
                      })
                    }
                  >
                    {item.label}
                  </NavDropdown.Item>
                ) : (
                  <NavDropdown.Item key={item.label} as={Link} to={item.to!}>
                    {item.label}
                  </NavDropdown.Item>
                ),
              )}
            </NavDropdown>
          )}
          <NavDropdown
            title={
              // A long name gives way to the other entries (cut with "…"); the title keeps it whole.
              <span data-testid="user-menu-title" className="user-menu-title" title={fullname}>
                <span className="user-menu-name">{fullname}</span>
                <i className="bi bi-person-fill" aria-hidden="true" />
              </span>
            }
            id="user-menu"
            className="user-menu"
            align="end"
          >
            {auth.profile && !auth.isGuest && (
              <NavDropdown.Item as={Link} to="/profile">
                User Profile
              </NavDropdown.Item>
            )}
            {auth.profile && !auth.isGuest && !settings.recaptchaSiteKey && (
              <NavDropdown.Item as="button" onClick={() => void switchToGuest()}>
                Switch to Guest
              </NavDropdown.Item>
            )}
            <NavDropdown.Item as={Link} to="/logout">
              Log Out
            </NavDropdown.Item>
          </NavDropdown>
        </Nav>
      </Navbar.Collapse>
    </>
  );
}
