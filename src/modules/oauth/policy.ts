import { interactionPolicy, type KoaContextWithOIDC } from 'oidc-provider';

const { Prompt, Check } = interactionPolicy;

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
      new Check('portier_sign_in', 'The user signs in for this authorization', (ctx: KoaContextWithOIDC) =>
        ctx.oidc.result?.login ? Check.NO_NEED_TO_PROMPT : Check.REQUEST_PROMPT,
      ),
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
