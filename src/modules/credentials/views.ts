// What the credentials' GraphQL types are made from (codegen.ts maps them here): types only,
// importing nothing, so generated/graphql.ts closes no import cycle.

export interface CredentialStatusView {
  set: boolean;
  hint: string | null;
  source: 'ENVIRONMENT' | 'DASHBOARD' | 'NONE';
  updatedAt: Date | null;
}

export interface CredentialsView {
  tenantId: string;
  stripe: CredentialStatusView;
  smtp: CredentialStatusView;
  sms: CredentialStatusView;
}
