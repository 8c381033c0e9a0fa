import type { ClientMetadata } from 'oidc-provider';
import type { OAuthAppRow } from '../../kernel/db/types.js';
import { classifyRedirectUri, LOOPBACK_HOSTS } from './redirect-uris.js';

/**
 * The client metadata oidc-provider sees for an app. `client_secret` carries the stored hash
 * (never the secret): the provider compares a presented secret through
 * `compareClientSecret`, which Portier overrides to hash it first.
 */
export function clientMetadataOf(app: OAuthAppRow): ClientMetadata {
  // A native app (RFC 8252): one with a private-use scheme or an http loopback redirect URI. For
  // oidc-provider a native app's loopback redirect URIs match on any port (RFC 8252 §7.3: the app
  // listens on a port the OS gives it at the time of the request); every other part stays exact.
  // An https URI on a loopback host is not a native app's (oidc-provider refuses it for one).
  const kinds = app.redirect_uris.map((uri) => ({ uri, kind: classifyRedirectUri(uri) }));
  const httpsLoopback = kinds.some(
    ({ uri }) => uri.startsWith('https:') && LOOPBACK_HOSTS.has(URL.parse(uri)?.hostname ?? ''),
  );
  const native =
    !httpsLoopback &&
    kinds.some(({ kind }) => 'kind' in kind && (kind.kind === 'private-use' || kind.kind === 'loopback'));
  return {
    client_id: app.client_id,
    client_name: app.name,
    redirect_uris: app.redirect_uris,
    grant_types: ['authorization_code', 'refresh_token'],
    response_types: ['code'],
    // The code comes back in the redirect URI's query only: response_mode=form_post or fragment
    // is refused (invalid_request), as the metadata says (response_modes_supported).
    response_modes: ['query'],
    scope: app.scopes.join(' '),
    application_type: native ? 'native' : 'web',
    ...(app.public || app.secret_hash === null
      ? { token_endpoint_auth_method: 'none' }
      : { token_endpoint_auth_method: 'client_secret_basic', client_secret: app.secret_hash }),
  };
}
