import { lazy } from 'react';
import { Navigate, Route, Routes, useLocation } from 'react-router';
import { Layout } from './components/Layout';
import { Loading } from './components/ui';
import { useSessionApi } from './session';
import { LoginPage } from './pages/Login';
import { OverviewPage } from './pages/Overview';
import { NotFoundPage } from './pages/NotFound';

// Pages load when first opened: the first screen needs only the shell.
const BookingListPage = lazy(() => import('./pages/bookings/BookingList').then((m) => ({ default: m.BookingListPage })));
const BookingDetailPage = lazy(() => import('./pages/bookings/BookingDetail').then((m) => ({ default: m.BookingDetailPage })));
const CatalogPage = lazy(() => import('./pages/catalog/Catalog').then((m) => ({ default: m.CatalogPage })));
const ObjectPage = lazy(() => import('./pages/catalog/ObjectPage').then((m) => ({ default: m.ObjectPage })));
const PricingPage = lazy(() => import('./pages/pricing/Pricing').then((m) => ({ default: m.PricingPage })));
const ApiKeysPage = lazy(() => import('./pages/admin/ApiKeys').then((m) => ({ default: m.ApiKeysPage })));
const DevicesPage = lazy(() => import('./pages/admin/Devices').then((m) => ({ default: m.DevicesPage })));
const WebhooksPage = lazy(() => import('./pages/admin/Webhooks').then((m) => ({ default: m.WebhooksPage })));
const WebhookPage = lazy(() => import('./pages/admin/WebhookPage').then((m) => ({ default: m.WebhookPage })));
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
  if (state.status === 'signedOut') return <Navigate to="/login" replace state={{ from: location.pathname + location.search }} />;
  return <Layout />;
}

export function App() {
  return (
    <Routes>
      <Route path="/login" element={<LoginPage />} />
      <Route element={<RequireSession />}>
        <Route index element={<OverviewPage />} />
        <Route path="bookings" element={<BookingListPage />} />
        <Route path="bookings/:id" element={<BookingDetailPage />} />
        <Route path="catalog" element={<CatalogPage />} />
        <Route path="catalog/objects/:id" element={<ObjectPage />} />
        <Route path="pricing" element={<PricingPage />} />
        <Route path="admin/api-keys" element={<ApiKeysPage />} />
        <Route path="admin/devices" element={<DevicesPage />} />
        <Route path="admin/webhooks" element={<WebhooksPage />} />
        <Route path="admin/webhooks/:id" element={<WebhookPage />} />
        <Route path="admin/team" element={<TeamPage />} />
        <Route path="admin/oauth-apps" element={<OAuthAppsPage />} />
        <Route path="admin/connected-apps" element={<ConnectedAppsPage />} />
        <Route path="*" element={<NotFoundPage />} />
      </Route>
    </Routes>
  );
}
