import { randomUUID } from 'node:crypto';
import type { Harness, RequestOptions, TestResponse } from './harness.js';
import { createUser } from '../src/modules/users/index.js';

export const PASSWORD = 'correct horse battery staple';
/** Portier's own origin in the harness (its PUBLIC_URL). */
export const OWN_ORIGIN = 'http://portier.test';

/** A user of the tenant with a unique email. */
export async function buildUser(h: Harness, tenantId: string, role: 'admin' | 'staff' = 'admin', password = PASSWORD) {
  const email = `user-${randomUUID()}@example.test`;
  const user = await createUser(h.deps.database.db, { tenantId, email, password, role });
  return { userId: user.id, email, password };
}

/** The session cookie a response set, as `name=value`. */
export function sessionCookieOf(res: TestResponse): string | undefined {
  const header = res.headers['set-cookie'];
  const all = Array.isArray(header) ? header : header ? [header] : [];
  const found = all.find((c) => c.startsWith('portier_session='));
  return found?.split(';')[0];
}

export type Request = (options: RequestOptions) => Promise<TestResponse>;

export interface SignedIn {
  res: TestResponse;
  cookie: string;
  csrfToken: string;
}

export async function signIn(
  request: Request,
  email: string,
  password = PASSWORD,
  headers: Record<string, string> = {},
): Promise<SignedIn> {
  const res = await request({
    method: 'POST',
    url: '/dashboard/api/session',
    body: { email, password },
    headers: { origin: OWN_ORIGIN, ...headers },
  });
  if (res.status !== 200) throw new Error(`sign-in failed: ${res.status} ${res.text}`);
  const cookie = sessionCookieOf(res);
  if (!cookie) throw new Error('sign-in set no cookie');
  return { res, cookie, csrfToken: res.body.csrfToken as string };
}

/** A GraphQL POST as the dashboard sends it: cookie, CSRF token and Portier's own Origin. */
export function sessionGraphql(
  request: Request,
  session: { cookie: string; csrfToken?: string },
  query: string,
  variables?: Record<string, unknown>,
  headers: Record<string, string> = {},
) {
  return request({
    method: 'POST',
    url: '/api/v1/graphql',
    body: { query, variables },
    headers: {
      cookie: session.cookie,
      origin: OWN_ORIGIN,
      ...(session.csrfToken ? { 'x-csrf-token': session.csrfToken } : {}),
      ...headers,
    },
  });
}
