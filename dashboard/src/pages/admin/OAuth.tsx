import { Empty, PageHeader, Section } from '../../components/ui';

// Filled in once the oauth branch's GraphQL (oauthApps, connectedApps) is merged.
export function OAuthAppsPage() {
  return (
    <>
      <PageHeader title="OAuth Apps" description="Applications your venue registered to act for other Portier tenants." />
      <Section title="Apps">
        <Empty>OAuth apps arrive with Portier's OAuth 2.0 server.</Empty>
      </Section>
    </>
  );
}

export function ConnectedAppsPage() {
  return (
    <>
      <PageHeader title="Connected apps" description="Applications that may act for your venue." />
      <Section title="Apps">
        <Empty>Connected apps arrive with Portier's OAuth 2.0 server.</Empty>
      </Section>
    </>
  );
}
