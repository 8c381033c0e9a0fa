import type { FastifyRequest } from 'fastify';

/** The signed-in user an authorization is given by: the grant is for their tenant, within their role. */
export interface OAuthUser {
  userId: string;
  email: string;
  role: string;
  tenantId: string;
  tenantName: string;
  /** Effective scopes of the role (admin expanded). */
  scopes: string[];
}

export type SignInResult = { ok: true; user: OAuthUser } | { ok: false; message: string; retryAfterSeconds?: number };

/** What the interaction pages need from the users module (dashboard sessions, passwords). */
export interface UserDirectory {
  /** The user of the dashboard session cookie, if a valid one came with the request. */
  fromSession(req: FastifyRequest): Promise<OAuthUser | null>;
  signIn(req: FastifyRequest, email: string, password: string): Promise<SignInResult>;
  find(userId: string): Promise<OAuthUser | null>;
}
