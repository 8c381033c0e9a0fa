import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { onPostgres, runDatabaseUrl } from './worker-services.js';
import { startServerProcess, type ServerProcess } from './server-process.js';
import { buildUser } from './dashboard.js';
import { createApp } from '../src/modules/oauth/apps.service.js';
import { authorizeUrl, basic, fetchHttp, formPost, pkce, runAuthorization, type Http } from './oauth-flow.js';

// Two Portier processes sharing one PostgreSQL database (behind one PUBLIC_URL, as behind a load
// balancer) complete one OAuth flow between them: every step lands on the other process than the
// one before, so interactions, codes, tokens and grants must live in the database, and cookies
// and sealed payloads must be readable by both (same PORTIER_SECRET).
// PGlite is one process's embedded database: there is nothing to share, so this is skipped there.

const PUBLIC_URL = 'http://portier.example.test';
const REDIRECT = 'https://app.example.test/callback';

describe.skipIf(!onPostgres)(
  'OAuth across two processes sharing PostgreSQL (skipped on PGlite: an embedded database cannot be shared by processes)',
  () => {
    let h: Harness;
    let a: ServerProcess;
    let b: ServerProcess;

    beforeAll(async () => {
      h = await harness();
      const env = {
        DATABASE_URL: (await runDatabaseUrl()) ?? '',
        PORTIER_SECRET: 'two-processes-share-this-secret',
        PUBLIC_URL,
      };
      [a, b] = await Promise.all([startServerProcess(env), startServerProcess(env)]);
    }, 180_000);

    afterAll(async () => {
      await Promise.all([a?.stop(), b?.stop()]);
    });

    it('a flow that starts on one process ends on the other', async () => {
      const owner = await h.tenant('App maker');
      const { app, clientSecret } = await createApp(h.deps.database.db, {
        tenantId: owner.tenantId,
        name: 'Shared',
        redirectUris: [REDIRECT],
        scopes: ['bookings:read'],
      });
      const customer = await h.tenant('Customer');
      const user = await buildUser(h, customer.tenantId, 'admin');
      const auth = basic(app.client_id, clientSecret ?? '');
      const onA = fetchHttp(a.url);
      const onB = fetchHttp(b.url);
      let turn = 0;
      const seen: string[] = [];
      // Each request goes to the other process than the last.
      const alternating: Http = (req) => {
        turn += 1;
        seen.push(turn % 2 ? 'A' : 'B');
        return (turn % 2 ? onA : onB)(req);
      };

      const { verifier, challenge } = pkce();
      const flow = await runAuthorization(alternating, {
        url: authorizeUrl({
          clientId: app.client_id,
          redirectUri: REDIRECT,
          scope: 'bookings:read',
          state: 'across',
          challenge,
        }),
        origin: PUBLIC_URL,
        email: user.email,
        password: user.password,
      });
      expect(flow.pages).toEqual(['sign-in', 'consent']);
      expect(seen.length).toBeGreaterThanOrEqual(6);
      expect(flow.redirect?.searchParams.get('state')).toBe('across');
      const code = flow.redirect?.searchParams.get('code') ?? '';
      expect(code).not.toBe('');

      // The code was issued by one process; the other exchanges it.
      const exchangeOn = seen.at(-1) === 'A' ? onB : onA;
      const useOn = exchangeOn === onA ? onB : onA;
      const tokens = await formPost(
        exchangeOn,
        '/oauth/token',
        { grant_type: 'authorization_code', code, redirect_uri: REDIRECT, code_verifier: verifier },
        auth,
      );
      expect(tokens.status).toBe(200);
      const access = tokens.body.access_token as string;
      const refresh = tokens.body.refresh_token as string;
      const listed = await useOn({
        method: 'GET',
        url: `/api/v1/tenants/${customer.tenantId}/bookings`,
        headers: { authorization: `Bearer ${access}` },
      });
      expect(listed.status).toBe(200);

      const rotated = await formPost(
        useOn,
        '/oauth/token',
        { grant_type: 'refresh_token', refresh_token: refresh },
        auth,
      );
      expect(rotated.status).toBe(200);
      const reused = await formPost(
        exchangeOn,
        '/oauth/token',
        { grant_type: 'refresh_token', refresh_token: refresh },
        auth,
      );
      expect(reused.body.error).toBe('invalid_grant');
      const after = await exchangeOn({
        method: 'GET',
        url: `/api/v1/tenants/${customer.tenantId}/bookings`,
        headers: { authorization: `Bearer ${rotated.body.access_token as string}` },
      });
      expect(after.status).toBe(401);
    }, 120_000);
  },
);
