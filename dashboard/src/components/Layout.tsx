import { Suspense, useId, useState } from 'react';
import { Link, NavLink, Outlet, useLocation } from 'react-router';
import { useLiveBookings, type LiveState } from '../api/live';
import { isTestMode, setTestMode } from '../api/client';
import { useSession, useSessionApi } from '../session';
import { ErrorNotice, Loading } from './ui';

interface NavItem {
  to: string;
  label: string;
  /** The scope the page needs; the link is shown only when the session's scopes allow it. */
  scope?: string;
  end?: boolean;
}

const VENUE: NavItem[] = [
  { to: '/', label: 'Overview', end: true },
  { to: '/calendar', label: 'Calendar', scope: 'bookings:read' },
  { to: '/bookings', label: 'Bookings', scope: 'bookings:read' },
  { to: '/reports', label: 'Reports', scope: 'bookings:read' },
  { to: '/customers', label: 'Customers', scope: 'customers:read' },
  { to: '/catalog', label: 'Catalog', scope: 'catalog:read' },
  { to: '/pricing', label: 'Pricing', scope: 'pricing:read' },
];

const ADMIN: NavItem[] = [
  { to: '/admin/api-keys', label: 'API Keys', scope: 'admin' },
  { to: '/admin/devices', label: 'Devices', scope: 'devices:read' },
  { to: '/admin/webhooks', label: 'Webhooks', scope: 'webhooks:read' },
  { to: '/admin/notifications', label: 'Notifications', scope: 'admin' },
  { to: '/admin/booking-page', label: 'Booking page', scope: 'admin' },
  { to: '/admin/team', label: 'Team', scope: 'admin' },
  { to: '/admin/oauth-apps', label: 'OAuth Apps', scope: 'admin' },
  { to: '/admin/connected-apps', label: 'Connected apps', scope: 'admin' },
];

const LIVE_LABEL: Record<LiveState, string> = {
  connecting: 'Connecting…',
  live: 'Live',
  reconnecting: 'Reconnecting…',
};

/** The live-updates connection, quietly: a dot and a word in the top bar (the word hidden on a phone). */
function LiveStatus({ state }: { state: LiveState }) {
  return (
    <p
      className={`live-status live-${state}`}
      role="status"
      title={state === 'live' ? 'Bookings update as they change' : 'Bookings update again when the connection is back'}
    >
      <span className="live-dot" aria-hidden="true" />
      <span className="live-label">{LIVE_LABEL[state]}</span>
    </p>
  );
}

export function Layout() {
  const session = useSession();
  const canReadBookings = session.can('bookings:read');
  const testMode = isTestMode();
  // One subscription for every page under the shell: Overview, Bookings and Calendar refresh from it.
  // Not in test mode: the live stream carries no mode header and would show live bookings.
  const live = useLiveBookings(canReadBookings && !testMode);
  const { signOut } = useSessionApi();
  const [menuOpen, setMenuOpen] = useState(false);
  const [accountOpen, setAccountOpen] = useState(false);
  const accountId = useId();
  const [signOutError, setSignOutError] = useState<unknown>(null);
  const location = useLocation();
  const navId = useId();

  // A chosen page closes the menu on a phone (state adjusted while rendering, React's pattern for
  // "reset state when a value changes", rather than an effect that renders twice).
  const [shownPath, setShownPath] = useState(location.pathname);
  if (shownPath !== location.pathname) {
    setShownPath(location.pathname);
    setMenuOpen(false);
    setAccountOpen(false);
  }

  const visible = (items: NavItem[]) => items.filter((item) => !item.scope || session.can(item.scope));
  const admin = visible(ADMIN);

  const link = (item: NavItem) => (
    <li key={item.to}>
      <NavLink
        to={item.to}
        end={item.end}
        className={({ isActive }) => `nav-link${isActive ? ' nav-link-active' : ''}`}
      >
        {item.label}
      </NavLink>
    </li>
  );

  return (
    <div className="shell">
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true">
            P
          </span>
          <span className="brand-name">Portier</span>
          <span className="brand-tenant">{session.tenant.name}</span>
        </div>
        <div className="topbar-user">
          <label className="test-mode-switch">
            <input
              type="checkbox"
              checked={testMode}
              onChange={(event) => {
                setTestMode(event.target.checked);
                window.location.reload();
              }}
            />
            Test<span className="topbar-word"> mode</span>
          </label>
          {canReadBookings && !testMode ? <LiveStatus state={live} /> : null}
          {/* Escape from the menu's own button and links bubbles here; the container is not a control itself. */}
          {/* eslint-disable-next-line jsx-a11y/no-static-element-interactions */}
          <div
            className="account-menu"
            onKeyDown={(event) => {
              if (event.key === 'Escape') setAccountOpen(false);
            }}
          >
            <button
              type="button"
              className="account-button"
              aria-expanded={accountOpen}
              aria-controls={accountId}
              onClick={() => setAccountOpen((open) => !open)}
            >
              <span className="topbar-word">Your </span>
              <span className="topbar-capital">account</span>
            </button>
            <div id={accountId} className="account-panel" hidden={!accountOpen}>
              <p className="account-who">
                <span className="user-email">{session.user.email}</span>
                <span className="user-role">{session.user.role}</span>
              </p>
              <ul className="plain-list">
                <li>
                  <Link to="/account">Password and sessions</Link>
                </li>
                <li>
                  <button type="button" className="link-button" onClick={() => signOut(true).catch(setSignOutError)}>
                    Sign out everywhere
                  </button>
                </li>
              </ul>
            </div>
          </div>
          <button
            type="button"
            className="button button-secondary button-small"
            onClick={() => signOut().catch(setSignOutError)}
          >
            Sign out
          </button>
          <button
            type="button"
            className="menu-button"
            aria-expanded={menuOpen}
            aria-controls={navId}
            onClick={() => setMenuOpen((open) => !open)}
          >
            <span className="menu-icon" aria-hidden="true" />
            <span className="topbar-word">Menu</span>
          </button>
        </div>
      </header>
      {testMode ? (
        <p className="test-mode-banner" role="status">
          TEST MODE: you are looking at the sandbox, apart from live data. Switch off “Test mode” for live data.
        </p>
      ) : null}
      <div className="frame">
        <nav id={navId} className={`sidebar${menuOpen ? ' sidebar-open' : ''}`} aria-label="Main">
          <p className="nav-heading">Venue</p>
          <ul>{visible(VENUE).map(link)}</ul>
          {admin.length > 0 ? (
            <>
              <p className="nav-heading">Admin</p>
              <ul>{admin.map(link)}</ul>
            </>
          ) : null}
        </nav>
        <main id="main" className="content" tabIndex={-1}>
          <ErrorNotice error={signOutError} title="Sign-out failed" />
          <Suspense fallback={<Loading />}>
            <Outlet />
          </Suspense>
        </main>
      </div>
    </div>
  );
}
