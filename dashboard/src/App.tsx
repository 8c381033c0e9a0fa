import { Navigate, Route, Routes, useLocation } from 'react-router';
import { Layout } from './components/Layout';
import { Loading } from './components/ui';
import { useSessionApi } from './session';
import { LoginPage } from './pages/Login';
import { OverviewPage } from './pages/Overview';
import { BookingListPage } from './pages/bookings/BookingList';
import { BookingDetailPage } from './pages/bookings/BookingDetail';
import { CatalogPage } from './pages/catalog/Catalog';
import { ObjectPage } from './pages/catalog/ObjectPage';
import { PricingPage } from './pages/pricing/Pricing';
import { ApiKeysPage } from './pages/admin/ApiKeys';
import { DevicesPage } from './pages/admin/Devices';
import { WebhooksPage } from './pages/admin/Webhooks';
import { WebhookPage } from './pages/admin/WebhookPage';
import { TeamPage } from './pages/admin/Team';
import { OAuthAppsPage, ConnectedAppsPage } from './pages/admin/OAuth';
import { NotFoundPage } from './pages/NotFound';

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
