import { recordAudit } from '../audit/index.js';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type Provider from 'oidc-provider';
import type { InteractionResults } from 'oidc-provider';
import type { AppDeps } from '../../kernel/deps.js';
import { isScope } from '../../kernel/auth/scopes.js';
import { findApp } from './apps.repository.js';
import { findTenant } from '../tenants/index.js';
import { insertGrant } from './grants.repository.js';
import { checkRequestedScopes } from './scope-check.js';
import { SCOPE_WORDS } from './scope-words.js';
import { consentPage, errorPage, signInPage, type AppView } from './views.js';
import { csrfTokenFor, csrfValid } from './csrf.js';
import { GRANT_TTL_SECONDS, INTERACTION_BASE } from './provider.js';
import type { OAuthUser, UserDirectory } from './directory.js';
import { usersDirectory } from './users-directory.js';
import { OAUTH_DOCS } from './oauth.docs.js';
import type { RouteDoc } from '../../kernel/route-doc.js';

// The pages a user sees while authorizing an app: sign in (unless the dashboard session already
// says who they are), then consent. One visit per authorization request.

type Form = Record<string, string | undefined>;
interface Params {
  uid: string;
}

const PAGE_HEADERS = {
  'cache-control': 'no-store',
  'referrer-policy': 'same-origin',
  'x-frame-options': 'DENY',
  'x-content-type-options': 'nosniff',
};

/**
 * The page's CSP. Browsers apply form-action to the redirects that follow a form submission, so
 * the app's redirect URI (its origin, or its private-use scheme) is allowed as well as Portier.
 */
function cspOf(redirectUri: unknown): string {
  let target = '';
  if (typeof redirectUri === 'string') {
    const url = URL.parse(redirectUri);
    if (url) target = url.protocol === 'http:' || url.protocol === 'https:' ? ` ${url.origin}` : ` ${url.protocol}`;
  }
  return `default-src 'none'; style-src 'unsafe-inline'; form-action 'self'${target}; frame-ancestors 'none'; base-uri 'none'`;
}

function html(reply: FastifyReply, status: number, body: string, redirectUri?: unknown): FastifyReply {
  return reply
    .status(status)
    .headers(PAGE_HEADERS)
    .header('content-security-policy', cspOf(redirectUri))
    .type('text/html; charset=utf-8')
    .send(body);
}

export function registerInteractionRoutes(
  app: FastifyInstance,
  deps: AppDeps,
  provider: Provider,
  directory: UserDirectory = usersDirectory(deps),
): void {
  const db = deps.database.db;
  const secure = deps.env.publicUrl.startsWith('https:');
  const cookieOptions = { path: INTERACTION_BASE, secure };
  const config = (openapi: RouteDoc) => ({ config: { auth: 'none' as const, openapi } });

  async function appView(clientId: unknown): Promise<(AppView & { scopes: string[] }) | null> {
    if (typeof clientId !== 'string') return null;
    const row = await findApp(db, clientId);
    if (!row) return null;
    const owner = await findTenant(db, row.tenant_id);
    return { name: row.name, ownerTenantName: owner?.name ?? 'an unknown tenant', scopes: row.scopes };
  }

  /** The interaction of this browser, or an error page when it has none (expired, another browser). */
  async function interactionOf(req: FastifyRequest<{ Params: Params }>, reply: FastifyReply) {
    try {
      const details = await provider.interactionDetails(req.raw, reply.raw);
      if (details.uid !== req.params.uid) return null;
      return details;
    } catch {
      return null;
    }
  }

  async function finish(req: FastifyRequest, reply: FastifyReply, result: InteractionResults): Promise<void> {
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) reply.raw.setHeader(name, value);
    }
    reply.hijack();
    await provider.interactionFinished(req.raw, reply.raw, result, { mergeWithLastSubmission: true });
  }

  async function userOf(req: FastifyRequest, result: InteractionResults | undefined): Promise<OAuthUser | null> {
    const accountId = result?.login?.accountId;
    if (typeof accountId === 'string') return directory.find(accountId);
    return directory.fromSession(req);
  }

  const expired = (reply: FastifyReply) =>
    html(
      reply,
      400,
      errorPage({
        title: 'This sign-in page has expired',
        description: 'The authorization request is no longer open in this browser.',
      }),
    );
  const forbiddenForm = (reply: FastifyReply) =>
    html(
      reply,
      403,
      errorPage({
        title: 'The form could not be verified',
        error: 'csrf_failed',
        description: 'Reload the page and try again.',
      }),
    );

  void app.register(async (scope) => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body.toString())));
    });

    scope.get<{ Params: Params }>(`${INTERACTION_BASE}/:uid`, config(OAUTH_DOCS.interaction), async (req, reply) => {
      const details = await interactionOf(req, reply);
      if (!details) return expired(reply);
      const view = await appView(details.params.client_id);
      if (!view)
        return html(reply, 400, errorPage({ title: 'This app is no longer registered', error: 'invalid_client' }));
      const csrfToken = csrfTokenFor(req, reply, deps.secret, details.uid, cookieOptions);
      const user = await userOf(req, details.result);
      if (!user)
        return html(
          reply,
          200,
          signInPage({ app: view, action: `${INTERACTION_BASE}/${details.uid}/sign-in`, csrfToken }),
          details.params.redirect_uri,
        );
      const check = checkRequestedScopes(details.params.scope as string | undefined, view.scopes, user.scopes);
      if (!check.ok) return finish(req, reply, { error: 'invalid_scope', error_description: check.description });
      return html(
        reply,
        200,
        consentPage({
          app: view,
          userEmail: user.email,
          tenantName: user.tenantName,
          scopes: check.scopes.filter(isScope).map((s) => ({ scope: s, words: SCOPE_WORDS[s] })),
          action: `${INTERACTION_BASE}/${details.uid}/decision`,
          csrfToken,
        }),
        details.params.redirect_uri,
      );
    });

    scope.post<{ Params: Params; Body: Form }>(
      `${INTERACTION_BASE}/:uid/sign-in`,
      config(OAUTH_DOCS.signIn),
      async (req, reply) => {
        const details = await interactionOf(req, reply);
        if (!details) return expired(reply);
        const form = req.body ?? {};
        if (!csrfValid(req, deps.secret, details.uid, form.csrf, deps.env.publicUrl)) return forbiddenForm(reply);
        const view = await appView(details.params.client_id);
        if (!view)
          return html(reply, 400, errorPage({ title: 'This app is no longer registered', error: 'invalid_client' }));
        const email = typeof form.email === 'string' ? form.email.trim() : '';
        const password = typeof form.password === 'string' ? form.password : '';
        const signedIn =
          email && password
            ? await directory.signIn(req, email, password)
            : { ok: false as const, message: 'Enter your email and password.' };
        if (!signedIn.ok) {
          if (signedIn.retryAfterSeconds) reply.header('retry-after', String(signedIn.retryAfterSeconds));
          const csrfToken = csrfTokenFor(req, reply, deps.secret, details.uid, cookieOptions);
          return html(
            reply,
            signedIn.retryAfterSeconds ? 429 : 401,
            signInPage({
              app: view,
              action: `${INTERACTION_BASE}/${details.uid}/sign-in`,
              csrfToken,
              email,
              error: signedIn.message,
            }),
            details.params.redirect_uri,
          );
        }
        await provider.interactionResult(req.raw, reply.raw, {
          login: { accountId: signedIn.user.userId, remember: false },
        });
        return reply.redirect(`${INTERACTION_BASE}/${details.uid}`, 303);
      },
    );

    scope.post<{ Params: Params; Body: Form }>(
      `${INTERACTION_BASE}/:uid/decision`,
      config(OAUTH_DOCS.decision),
      async (req, reply) => {
        const details = await interactionOf(req, reply);
        if (!details) return expired(reply);
        const form = req.body ?? {};
        if (!csrfValid(req, deps.secret, details.uid, form.csrf, deps.env.publicUrl)) return forbiddenForm(reply);
        const user = await userOf(req, details.result);
        if (!user) return reply.redirect(`${INTERACTION_BASE}/${details.uid}`, 303);
        const audit = (action: 'oauth.consent_allowed' | 'oauth.consent_denied', facts: Record<string, unknown>) =>
          recordAudit(db, {
            tenantId: user.tenantId,
            actor: { type: 'user', id: user.userId, label: user.email },
            action,
            target: { type: 'oauthApp', id: String(facts.clientId) },
            details: facts,
            ip: req.ip,
            at: deps.now(),
          });
        if (form.decision !== 'allow') {
          await audit('oauth.consent_denied', {
            clientId: details.params.client_id,
            scope: details.params.scope ?? null,
          });
          return finish(req, reply, {
            error: 'access_denied',
            error_description: 'The user denied the authorization request',
          });
        }
        const clientId = details.params.client_id as string;
        const appRow = await findApp(db, clientId);
        if (!appRow)
          return html(reply, 400, errorPage({ title: 'This app is no longer registered', error: 'invalid_client' }));
        const check = checkRequestedScopes(details.params.scope as string | undefined, appRow.scopes, user.scopes);
        if (!check.ok) return finish(req, reply, { error: 'invalid_scope', error_description: check.description });

        const grant = new provider.Grant({ accountId: user.userId, clientId });
        grant.addOIDCScope(check.scopes.join(' '));
        const grantId = await grant.save();
        await insertGrant(db, {
          grant_id: grantId,
          tenant_id: user.tenantId,
          client_id: clientId,
          user_id: user.userId,
          scopes: check.scopes,
          expires_at: new Date(Date.now() + GRANT_TTL_SECONDS * 1000),
        });
        await audit('oauth.consent_allowed', { clientId, scopes: check.scopes, grantId });
        return finish(req, reply, { login: { accountId: user.userId, remember: false }, consent: { grantId } });
      },
    );
  });
}
