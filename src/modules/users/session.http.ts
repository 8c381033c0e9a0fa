import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../kernel/deps.js';
import type { ApiKeyPrincipal } from '../../kernel/auth/principal.js';
import type { TenantRow, UserRow } from '../../kernel/db/types.js';
import { DomainError, forbidden, notFound } from '../../kernel/errors.js';
import { isUuid } from '../../kernel/validation.js';
import { announceCredentialChange } from '../../kernel/live/index.js';
import { effectiveScopesOfRole } from './roles.js';
import { isOwnOrigin } from './origin.js';
import type { LiveSession } from './sessions.repository.js';
import {
  csrfTokenMatches,
  csrfTokenOf,
  endOneUserSession,
  endSession,
  endSessionByToken,
  endUserSessions,
  liveUserSessions,
  resumeSession,
  startSession,
} from './sessions.service.js';
import { verifyCredentials } from './users.service.js';
import { ensureSandbox } from '../tenants/index.js';
import { parseSignIn } from './users.commands.js';
import { ANONYMOUS_ACTOR, recordAudit, userActor } from '../audit/index.js';
import type { SignInThrottle } from './throttle.js';
import type { RouteDoc } from '../../kernel/route-doc.js';
import {
  END_SESSION_DOC,
  LIST_SESSIONS_DOC,
  SESSION_DOC,
  SIGN_IN_DOC,
  SIGN_OUT_DOC,
  SIGN_OUT_EVERYWHERE_DOC,
} from './session.docs.js';

export const SESSION_COOKIE = 'portier_session';
export const CSRF_HEADER = 'x-csrf-token';
/**
 * Test mode in the dashboard (docs/test-mode.md): a session's GraphQL request with
 * `X-Portier-Mode: test` acts on the sandbox of the user's tenant, made on the first such request.
 */
export const MODE_HEADER = 'x-portier-mode';
export const SESSION_PATH = '/dashboard/api/session';

/** Who is signed in on a request (OAuth's interaction pages use it too). */
export interface SessionUser {
  user: Pick<UserRow, 'id' | 'email' | 'role' | 'tenant_id'>;
  tenant: TenantRow;
  /** Effective scopes of the user's role (admin expanded). */
  scopes: string[];
  sessionId: string;
}

const invalidCredentials = () =>
  new DomainError('UNAUTHENTICATED', 'invalid_credentials', 'The email or password is wrong');
const notSignedIn = () =>
  new DomainError('UNAUTHENTICATED', 'not_signed_in', 'Not signed in, or the session has ended: sign in again');
export const csrfFailed = (why: string) => forbidden(`Refused as a possible cross-site request: ${why}`, 'csrf_failed');

/**
 * Dashboard sessions over HTTP: the cookie, the CSRF checks and the principal a session acts as.
 * One instance per app, built at the composition root.
 */
export class DashboardSessions {
  private readonly resumed = new WeakMap<FastifyRequest, Promise<LiveSession | null>>();
  readonly secureCookie: boolean;

  constructor(
    readonly deps: AppDeps,
    readonly throttle: SignInThrottle,
  ) {
    this.secureCookie = deps.env.publicUrl.startsWith('https:');
  }

  private cookieOf(req: FastifyRequest): string | undefined {
    const value = req.cookies[SESSION_COOKIE];
    return value === undefined || value === '' ? undefined : value;
  }

  /** The request's live session, looked up once per request. */
  live(req: FastifyRequest): Promise<LiveSession | null> {
    let found = this.resumed.get(req);
    if (!found) {
      const token = this.cookieOf(req);
      found =
        token === undefined
          ? Promise.resolve(null)
          : resumeSession(this.deps.database.db, token, this.deps.now()).then((s) => s ?? null);
      this.resumed.set(req, found);
    }
    return found;
  }

  async userOf(req: FastifyRequest): Promise<SessionUser | null> {
    const live = await this.live(req);
    if (!live) return null;
    const { id, email, role, tenant_id } = live.user;
    return {
      user: { id, email, role, tenant_id },
      tenant: live.tenant,
      scopes: effectiveScopesOfRole(role),
      sessionId: live.session.id,
    };
  }

  /** Whether the request comes from Portier's own pages (Origin, else Sec-Fetch-Site). */
  fromOwnOrigin(req: FastifyRequest): boolean {
    const own = { publicUrl: this.deps.env.publicUrl, requestOrigin: `${req.protocol}://${req.host}` };
    const secFetchSite = req.headers['sec-fetch-site'];
    return isOwnOrigin(
      { origin: req.headers.origin, secFetchSite: typeof secFetchSite === 'string' ? secFetchSite : undefined },
      own,
    );
  }

  /** Why a state-changing request authenticated by this session is refused, or null. */
  csrfProblem(req: FastifyRequest, sessionId: string): string | null {
    if (!this.fromOwnOrigin(req)) return "the request's Origin is not Portier's own";
    if (!csrfTokenMatches(this.deps.secret, sessionId, req.headers[CSRF_HEADER]))
      return 'the X-CSRF-Token header is missing or wrong';
    return null;
  }

  /**
   * The principal of a cookie on a route that accepts one (GraphQL POST): null without a cookie,
   * a 401 for an ended session, a 403 csrf_failed without the token or from another origin.
   */
  async authenticate(req: FastifyRequest): Promise<{ principal: ApiKeyPrincipal } | { failure: DomainError } | null> {
    if (this.cookieOf(req) === undefined) return null;
    const live = await this.live(req);
    if (!live) return { failure: notSignedIn() };
    const problem = this.csrfProblem(req, live.session.id);
    if (problem) return { failure: csrfFailed(problem) };
    const principal = principalOf(live);
    if (req.headers[MODE_HEADER] !== 'test') return { principal };
    const sandbox = await ensureSandbox(this.deps.database.db, live.tenant);
    return { principal: { ...principal, tenantId: sandbox.id, livemode: false } };
  }

  setCookie(reply: FastifyReply, token: string): void {
    reply.setCookie(SESSION_COOKIE, token, { path: '/', httpOnly: true, sameSite: 'lax', secure: this.secureCookie });
  }

  clearCookie(reply: FastifyReply): void {
    reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'lax', secure: this.secureCookie });
  }
}

/** A session acts as an API key of its tenant holding the role's scopes. */
export function principalOf(live: LiveSession): ApiKeyPrincipal {
  return {
    kind: 'apiKey',
    keyId: `user:${live.user.id}`,
    tenantId: live.tenant.id,
    scopes: effectiveScopesOfRole(live.user.role),
    rateLimitPerMinute: null,
    via: { type: 'session', userId: live.user.id, sessionId: live.session.id },
  };
}

function sessionBody(
  sessions: DashboardSessions,
  live: Pick<LiveSession, 'user' | 'tenant'> & { session: { id: string } },
) {
  return {
    user: { id: live.user.id, email: live.user.email, role: live.user.role },
    tenant: { id: live.tenant.id, name: live.tenant.name },
    scopes: effectiveScopesOfRole(live.user.role),
    csrfToken: csrfTokenOf(sessions.deps.secret, live.session.id),
  };
}

const userAgentOf = (req: FastifyRequest) =>
  typeof req.headers['user-agent'] === 'string' ? req.headers['user-agent'] : null;

/** POST/GET/DELETE /dashboard/api/session and POST …/revoke-all. Cookies authenticate these only. */
export function registerSessionRoutes(app: FastifyInstance, sessions: DashboardSessions): void {
  const { deps, throttle } = sessions;
  const db = deps.database.db;
  const config = (openapi: RouteDoc) => ({ auth: 'none', openapi }) as const;

  app.post(SESSION_PATH, { config: config(SIGN_IN_DOC) }, async (req, reply) => {
    // Sign-in from another site's page (login CSRF) is refused before anything is checked.
    if (!sessions.fromOwnOrigin(req)) throw csrfFailed("the request's Origin is not Portier's own");
    const { email, password } = parseSignIn(req.body);
    const attempt = { account: email.toLowerCase(), address: req.ip };
    // Counted before it is judged: a burst of guesses gets at most the remaining budget of verdicts.
    const ticket = await throttle.take(attempt);
    if (!ticket.allowed) {
      const wait = ticket.retryAfterSeconds;
      throw new DomainError('RATE_LIMITED', 'sign_in_throttled', `Too many failed sign-ins; try again in ${wait} s`, {
        headers: { 'Retry-After': String(wait) },
      });
    }
    const verified = await verifyCredentials(db, email, password);
    const now = deps.now();
    await ticket.judged(verified.ok);
    if (!verified.ok) {
      const user = verified.user;
      if (user) {
        // Someone, not necessarily the user, tried the user's email: the actor is unauthenticated.
        await recordAudit(db, {
          tenantId: user.tenant_id,
          actor: ANONYMOUS_ACTOR,
          action: 'session.sign_in_failed',
          target: { type: 'user', id: user.id },
          ip: req.ip,
          at: now,
        });
      } else {
        req.log.info({ event: 'sign_in_failed_unknown_email' }, 'sign-in with an email no user has');
      }
      throw invalidCredentials();
    }
    const { user, tenant } = verified.found;
    const previous = req.cookies[SESSION_COOKIE];
    const started = await db.transaction().execute(async (trx) => {
      // The browser's old session (if any) ends: a sign-in never keeps a session id it brought.
      if (previous) await endSessionByToken(trx, previous, now);
      const result = await startSession(trx, user, { now, ip: req.ip, userAgent: userAgentOf(req) });
      await recordAudit(trx, {
        tenantId: tenant.id,
        actor: userActor(user),
        action: 'session.signed_in',
        target: { type: 'user', id: user.id },
        ip: req.ip,
        at: now,
      });
      return result;
    });
    sessions.setCookie(reply, started.token);
    reply.header('cache-control', 'no-store');
    return sessionBody(sessions, { user, tenant, session: started.session });
  });

  app.get(SESSION_PATH, { config: config(SESSION_DOC) }, async (req, reply) => {
    const live = await sessions.live(req);
    if (!live) throw notSignedIn();
    reply.header('cache-control', 'no-store');
    return sessionBody(sessions, live);
  });

  app.delete(SESSION_PATH, { config: config(SIGN_OUT_DOC) }, async (req, reply) => {
    const live = await sessions.live(req);
    if (live) {
      const problem = sessions.csrfProblem(req, live.session.id);
      if (problem) throw csrfFailed(problem);
      const now = deps.now();
      await db.transaction().execute(async (trx) => {
        await endSession(trx, live.session.id, now);
        await recordAudit(trx, {
          tenantId: live.tenant.id,
          actor: userActor(live.user),
          action: 'session.signed_out',
          target: { type: 'user', id: live.user.id },
          ip: req.ip,
          at: now,
        });
      });
      // The session's open streams end in every process.
      announceCredentialChange(deps.live, live.tenant.id);
    }
    sessions.clearCookie(reply);
    return reply.status(204).send();
  });

  registerOwnSessionRoutes(app, sessions);

  app.post(`${SESSION_PATH}/revoke-all`, { config: config(SIGN_OUT_EVERYWHERE_DOC) }, async (req, reply) => {
    const live = await sessions.live(req);
    if (!live) throw notSignedIn();
    const problem = sessions.csrfProblem(req, live.session.id);
    if (problem) throw csrfFailed(problem);
    const now = deps.now();
    await db.transaction().execute(async (trx) => {
      const ended = await endUserSessions(trx, live.user.id, now);
      await recordAudit(trx, {
        tenantId: live.tenant.id,
        actor: userActor(live.user),
        action: 'session.signed_out_everywhere',
        target: { type: 'user', id: live.user.id },
        details: { sessions: ended },
        ip: req.ip,
        at: now,
      });
    });
    announceCredentialChange(deps.live, live.tenant.id);
    sessions.clearCookie(reply);
    return reply.status(204).send();
  });
}

/** GET /dashboard/api/session/sessions and DELETE …/sessions/:sessionId: the user's own sessions. */
function registerOwnSessionRoutes(app: FastifyInstance, sessions: DashboardSessions): void {
  const { deps } = sessions;
  const db = deps.database.db;
  const config = (openapi: RouteDoc) => ({ auth: 'none', openapi }) as const;

  app.get(`${SESSION_PATH}/sessions`, { config: config(LIST_SESSIONS_DOC) }, async (req, reply) => {
    const live = await sessions.live(req);
    if (!live) throw notSignedIn();
    const rows = await liveUserSessions(db, live.user.id, deps.now());
    reply.header('cache-control', 'no-store');
    return {
      sessions: rows.map((row) => ({
        id: row.id,
        createdAt: row.created_at.toISOString(),
        lastSeenAt: row.last_seen_at.toISOString(),
        expiresAt: row.expires_at.toISOString(),
        userAgent: row.user_agent,
        ip: row.ip,
        current: row.id === live.session.id,
      })),
    };
  });

  app.delete<{ Params: { sessionId: string } }>(
    `${SESSION_PATH}/sessions/:sessionId`,
    { config: config(END_SESSION_DOC) },
    async (req, reply) => {
      const live = await sessions.live(req);
      if (!live) throw notSignedIn();
      const problem = sessions.csrfProblem(req, live.session.id);
      if (problem) throw csrfFailed(problem);
      const { sessionId } = req.params;
      const now = deps.now();
      const ended = isUuid(sessionId)
        ? await db.transaction().execute(async (trx) => {
            const done = await endOneUserSession(trx, live.user.id, sessionId, now);
            if (done) {
              await recordAudit(trx, {
                tenantId: live.tenant.id,
                actor: userActor(live.user),
                action: 'session.signed_out',
                target: { type: 'user', id: live.user.id },
                details: { sessionId, current: sessionId === live.session.id },
                ip: req.ip,
                at: now,
              });
            }
            return done;
          })
        : false;
      if (!ended) throw notFound('Session', sessionId);
      announceCredentialChange(deps.live, live.tenant.id);
      if (sessionId === live.session.id) sessions.clearCookie(reply);
      return reply.status(204).send();
    },
  );
}

declare module 'fastify' {
  interface FastifyInstance {
    dashboardSessions: DashboardSessions;
  }
}

/** Who is signed in to the dashboard on this request (no CSRF check: callers that change state add one). */
export function sessionUserOf(req: FastifyRequest): Promise<SessionUser | null> {
  return req.server.dashboardSessions.userOf(req);
}
