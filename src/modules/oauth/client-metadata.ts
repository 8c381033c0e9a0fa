import type { ClientMetadata } from 'oidc-provider';
import type { OAuthAppRow } from '../../db/types.js';
import { classifyRedirectUri } from './redirect-uris.js';

/**
 * The client metadata oidc-provider sees for an app. `client_secret` carries the stored hash
 * (never the secret): the provider compares a presented secret through
 * `compareClientSecret`, which Portier overrides to hash it first.
 */
export function clientMetadataOf(app: OAuthAppRow): ClientMetadata {
  const native = app.redirect_uris.some((uri) => {
    const kind = classifyRedirectUri(uri);
    return 'kind' in kind && kind.kind === 'private-use';
  });
  return {
    client_id: app.client_id,
    client_name: app.name,
    redirect_uris: app.redirect_uris,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    scope: app.scopes.join(' '),
    application_type: native ? 'native' : 'web',
    ...(app.public || app.secret_hash === null ? { token_endpoint_auth_method: 'none' } : { token_endpoint_auth_method: 'client_secret_basic', client_secret: app.secret_hash }),
  };
}
