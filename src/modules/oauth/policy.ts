import { errors, interactionPolicy, type KoaContextWithOIDC } from 'oidc-provider';
import { SCOPES } from '../../kernel/auth/scopes.js';

const { Prompt, Check } = interactionPolicy;
const KNOWN = new Set<string>(SCOPES);

/**
 * oidc-provider drops scope values it does not know before the request reaches the interaction;
 * Portier refuses them (invalid_scope at the redirect URI) so a grant is never silently narrowed.
 */
function refuseUnknownScopes(ctx: KoaContextWithOIDC): void {
  if (ctx.oidc.route !== 'authorization') return;
  const raw = ctx.query.scope;
  const unknown = (typeof raw === 'string' ? raw : '').split(' ').filter((s) => s !== '' && !KNOWN.has(s));
  if (unknown.length) throw new errors.InvalidScope('requested scope is not supported', unknown.join(' '));
}

/**
 * Every authorization request goes through Portier's interaction page once: it signs the user in
 * (or takes the dashboard session) and asks for consent in the same visit, then answers with both
 * results. Nothing is granted silently from an earlier browser session or an earlier consent.
 */
export function portierPolicy(): interactionPolicy.DefaultPolicy {
  const policy = interactionPolicy.base();
  policy.clear();
  policy.add(
    new Prompt(
      { name: 'login', requestable: true },
      new Check('portier_sign_in', 'The user signs in for this authorization', (ctx: KoaContextWithOIDC) => {
        refuseUnknownScopes(ctx);
        return ctx.oidc.result?.login ? Check.NO_NEED_TO_PROMPT : Check.REQUEST_PROMPT;
      }),
    ),
  );
  policy.add(
    new Prompt(
      { name: 'consent', requestable: true },
      new Check('portier_consent', 'The user allows this app each time it asks', (ctx: KoaContextWithOIDC) =>
        ctx.oidc.result?.consent?.grantId ? Check.NO_NEED_TO_PROMPT : Check.REQUEST_PROMPT,
      ),
    ),
  );
  return policy;
}
