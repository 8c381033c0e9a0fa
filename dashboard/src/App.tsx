import { lazy } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { Layout } from './components/Layout';
import { Loading } from './components/ui';
import { useSessionApi } from './session';
import { LoginPage } from './pages/Login';
import { ForgotPasswordPage } from './pages/ForgotPassword';
import { ResetPasswordPage } from './pages/ResetPassword';
import { AcceptInvitePage } from './pages/AcceptInvite';
import { OverviewPage } from './pages/Overview';
import { NotFoundPage } from './pages/NotFound';
import { NotAllowedPage } from './pages/NotAllowed';
import { useSession } from './session';
import type { ReactNode } from 'react';

// Pages load when first opened: the first screen needs only the shell.
const BookingListPage = lazy(() =>
  import('./pages/bookings/BookingList').then((m) => ({ default: m.BookingListPage })),
);
const BookingDetailPage = lazy(() =>
  import('./pages/bookings/BookingDetail').then((m) => ({ default: m.BookingDetailPage })),
);
// Lazy like every page; recharts comes only with it, so the main bundle does not carry the charts.
const ReportsPage = lazy(() => import('./pages/reports/Reports').then((m) => ({ default: m.ReportsPage })));
const CustomerListPage = lazy(() =>
  import('./pages/customers/CustomerList').then((m) => ({ default: m.CustomerListPage })),
);
const CustomerDetailPage = lazy(() =>
  import('./pages/customers/CustomerDetail').then((m) => ({ default: m.CustomerDetailPage })),
);
const CalendarPage = lazy(() => import('./pages/calendar/Calendar').then((m) => ({ default: m.CalendarPage })));
const CatalogPage = lazy(() => import('./pages/catalog/Catalog').then((m) => ({ default: m.CatalogPage })));
const ObjectPage = lazy(() => import('./pages/catalog/ObjectPage').then((m) => ({ default: m.ObjectPage })));
const PricingPage = lazy(() => import('./pages/pricing/Pricing').then((m) => ({ default: m.PricingPage })));
const ApiKeysPage = lazy(() => import('./pages/admin/ApiKeys').then((m) => ({ default: m.ApiKeysPage })));
const DevicesPage = lazy(() => import('./pages/admin/Devices').then((m) => ({ default: m.DevicesPage })));
const DevicePage = lazy(() => import('./pages/admin/DevicePage').then((m) => ({ default: m.DevicePage })));
const WebhooksPage = lazy(() => import('./pages/admin/Webhooks').then((m) => ({ default: m.WebhooksPage })));
const WebhookPage = lazy(() => import('./pages/admin/WebhookPage').then((m) => ({ default: m.WebhookPage })));
const AccountPage = lazy(() => import('./pages/Account').then((m) => ({ default: m.AccountPage })));
const NotificationsPage = lazy(() =>
  import('./pages/admin/Notifications').then((m) => ({ default: m.NotificationsPage })),
);
const BookingPagePage = lazy(() => import('./pages/admin/BookingPage').then((m) => ({ default: m.BookingPagePage })));
const TeamPage = lazy(() => import('./pages/admin/Team').then((m) => ({ default: m.TeamPage })));
const OAuthAppsPage = lazy(() => import('./pages/admin/OAuth').then((m) => ({ default: m.OAuthAppsPage })));
const ConnectedAppsPage = lazy(() => import('./pages/admin/OAuth').then((m) => ({ default: m.ConnectedAppsPage })));

function RequireSession() {
  const { state } = useSessionApi();
  const location = useLocation();
  if (state.status === 'loading') {
    return (
      <div className="boot">
        <Loading />
      </div>
    );
  }
  if (state.status === 'signedOut')
    return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  return <Layout />;
}

/** The page, or "Not allowed" when the session's role lacks the scope (instead of forms that fail). */
function Allowed({ scope, page, children }: { scope: string; page: string; children: ReactNode }) {
  const session = useSession();
  return session.can(scope) ? children : <NotAllowedPage page={page} />;
}

export function App() {
  return (
    <Routes>
      <Route path="/login" element={<LoginPage />} />
      {/* Signed-out pages of staff accounts (docs/dashboard.md): the mailed links open these. */}
      <Route path="/forgot-password" element={<ForgotPasswordPage />} />
      <Route path="/reset-password" element={<ResetPasswordPage />} />
      <Route path="/accept-invite" element={<AcceptInvitePage />} />
      <Route element={<RequireSession />}>
        <Route index element={<OverviewPage />} />
        <Route
          path="bookings"
          element={
            <Allowed scope="bookings:read" page="Bookings">
              <BookingListPage />
            </Allowed>
          }
        />
        <Route
          path="bookings/:id"
          element={
            <Allowed scope="bookings:read" page="A booking">
              <BookingDetailPage />
            </Allowed>
          }
        />
        <Route
          path="customers"
          element={
            <Allowed scope="customers:read" page="Customers">
              <CustomerListPage />
            </Allowed>
          }
        />
        <Route
          path="customers/:id"
          element={
            <Allowed scope="customers:read" page="A customer">
              <CustomerDetailPage />
            </Allowed>
          }
        />
        <Route
          path="calendar"
          element={
            <Allowed scope="bookings:read" page="Calendar">
              <CalendarPage />
            </Allowed>
          }
        />
        <Route
          path="reports"
          element={
            <Allowed scope="bookings:read" page="Reports">
              <ReportsPage />
            </Allowed>
          }
        />
        <Route
          path="catalog"
          element={
            <Allowed scope="catalog:read" page="Catalog">
              <CatalogPage />
            </Allowed>
          }
        />
        <Route
          path="catalog/objects/:id"
          element={
            <Allowed scope="catalog:read" page="An object">
              <ObjectPage />
            </Allowed>
          }
        />
        <Route
          path="pricing"
          element={
            <Allowed scope="pricing:read" page="Pricing">
              <PricingPage />
            </Allowed>
          }
        />
        <Route path="account" element={<AccountPage />} />
        <Route
          path="admin/api-keys"
          element={
            <Allowed scope="admin" page="API Keys">
              <ApiKeysPage />
            </Allowed>
          }
        />
        <Route
          path="admin/devices"
          element={
            <Allowed scope="devices:read" page="Devices">
              <DevicesPage />
            </Allowed>
          }
        />
        <Route
          path="admin/devices/:id"
          element={
            <Allowed scope="devices:read" page="A device">
              <DevicePage />
            </Allowed>
          }
        />
        <Route
          path="admin/webhooks"
          element={
            <Allowed scope="webhooks:read" page="Webhooks">
              <WebhooksPage />
            </Allowed>
          }
        />
        <Route
          path="admin/webhooks/:id"
          element={
            <Allowed scope="webhooks:read" page="A webhook">
              <WebhookPage />
            </Allowed>
          }
        />
        <Route
          path="admin/team"
          element={
            <Allowed scope="admin" page="Team">
              <TeamPage />
            </Allowed>
          }
        />
        <Route
          path="admin/oauth-apps"
          element={
            <Allowed scope="admin" page="OAuth Apps">
              <OAuthAppsPage />
            </Allowed>
          }
        />
        <Route
          path="admin/connected-apps"
          element={
            <Allowed scope="admin" page="Connected apps">
              <ConnectedAppsPage />
            </Allowed>
          }
        />
        <Route
          path="admin/notifications"
          element={
            <Allowed scope="admin" page="Notifications">
              <NotificationsPage />
            </Allowed>
          }
        />
        <Route
          path="admin/booking-page"
          element={
            <Allowed scope="admin" page="Booking page">
              <BookingPagePage />
            </Allowed>
          }
        />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
