import { randomInt, randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { harness, type Harness, type TestResponse } from './harness.js';
import { ownApp, type OwnApp } from './own-app.js';
import { buildUser, OWN_ORIGIN, PASSWORD } from './dashboard.js';
import { workerRedisUrl } from './worker-services.js';
import { authorizeUrl, CookieJar, injectHttp, pkce, type HttpResponse } from './oauth-flow.js';
import { createApp } from '../src/modules/oauth/apps.service.js';
import { createSignInThrottle, DEFAULT_SIGN_IN_THROTTLE } from '../src/modules/users/index.js';
import { memoryLimiterStore, type LimiterStore } from '../src/kernel/limits/index.js';

// Issue #23, finding 1: the sign-in throttle was checked, then the password verified, then the
// failure counted — so simultaneous guesses all passed the check. Every guess is now counted before
// it is judged. These bursts use the documented limits (docs/dashboard.md): 5 failures per account
// and address, 20 per account, 100 per address; in memory and, with REDIS_URL, in Redis.

const REDIRECT = 'https://app.example.test/callback';
const redisUrl = workerRedisUrl();
const modes: { name: string; store: () => Promise<LimiterStore> }[] = [
  { name: 'in memory', store: async () => memoryLimiterStore() },
];
if (redisUrl) {
  modes.push({
    name: 'in Redis',
    store: async () => {
      const redis = new Redis(redisUrl, { lazyConnect: true });
      await redis.connect(); // a client not yet ready would count in memory (the insurance limiter)
      return { kind: 'redis', redis, close: () => redis.quit().then(() => undefined) };
    },
  });
}

let h: Harness;
beforeAll(async () => {
  h = await harness();
});

const tally = (statuses: number[]) =>
  statuses.reduce<Record<number, number>>((acc, s) => ({ ...acc, [s]: (acc[s] ?? 0) + 1 }), {});

describe.each(modes)('sign-in bursts, counters $name', ({ store: openStore }) => {
  let store: LimiterStore;
  let o: OwnApp;
  let proxied: OwnApp;
  let tenantId: string;
  beforeAll(async () => {
    store = await openStore();
    const options = {
      signInThrottle: createSignInThrottle(DEFAULT_SIGN_IN_THROTTLE, store),
      loadShedding: { maxEventLoopDelay: 600_000 },
    };
    o = await ownApp(h, { options });
    // Behind a proxy: the client address is X-Forwarded-For's.
    proxied = await ownApp(h, {
      env: { trustProxy: true },
      options: { ...options, signInThrottle: createSignInThrottle(DEFAULT_SIGN_IN_THROTTLE, store) },
    });
    ({ tenantId } = await h.tenant('Burst tenant'));
  });
  afterAll(async () => {
    await o?.close();
    await proxied?.close();
    await store?.close();
  });

  const signIn = (
    app: OwnApp,
    email: string,
    password: string,
    address: string,
    headers: Record<string, string> = {},
  ) =>
    app.request({
      method: 'POST',
      url: '/dashboard/api/session',
      body: { email, password },
      headers: { origin: OWN_ORIGIN, ...headers },
      remoteAddress: address,
    });

  /** The OAuth authorization page's sign-in form (through `app`), and a way to post guesses to it. */
  async function oauthSignInForm(app: OwnApp, address: string) {
    const owner = await h.tenant('Burst app maker');
    const { app: client } = await createApp(h.deps.database.db, {
      tenantId: owner.tenantId,
      name: 'Burst app',
      redirectUris: [REDIRECT],
      scopes: ['bookings:read'],
    });
    const user = await buildUser(h, tenantId);
    const http = injectHttp(app.app.fastify);
    const jar = new CookieJar();
    let page: HttpResponse = await http({
      method: 'GET',
      url: authorizeUrl({
        clientId: client.client_id,
        redirectUri: REDIRECT,
        scope: 'bookings:read',
        challenge: pkce().challenge,
      }),
    });
    for (let hop = 0; hop < 5 && page.status >= 300 && page.status < 400; hop += 1) {
      jar.take(page);
      const to = new URL(String(page.headers.location), OWN_ORIGIN);
      page = await http({ method: 'GET', url: to.pathname + to.search, headers: { cookie: jar.header() } });
    }
    jar.take(page);
    expect(page.status).toBe(200);
    const csrf = /name="csrf" value="([^"]+)"/.exec(page.text)?.[1] ?? '';
    const action = /<form method="post" action="([^"]+)"/.exec(page.text)?.[1] ?? '';
    expect(action).toMatch(/\/sign-in$/);
    const post = (password: string, headers: Record<string, string> = {}) =>
      app.app.fastify.inject({
        method: 'POST',
        url: action,
        remoteAddress: address,
        headers: {
          cookie: jar.header(),
          origin: OWN_ORIGIN,
          'content-type': 'application/x-www-form-urlencoded',
          ...headers,
        },
        payload: new URLSearchParams({ csrf, email: user.email, password }).toString(),
      });
    return { user, post };
  }

  const expectThrottled = (responses: TestResponse[]) => {
    for (const res of responses.filter((r) => r.status === 429)) {
      expect((res.body as { code?: string }).code).toBe('sign_in_throttled');
      expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    }
  };

  it(
    'finding 1: 30 concurrent wrong passwords for one account from one address get at most 5 verdicts, the rest 429',
    { timeout: 180_000 },
    async () => {
      const user = await buildUser(h, tenantId);
      const responses = await Promise.all(
        Array.from({ length: 30 }, () => signIn(o, user.email, 'wrong password!', '10.23.1.1')),
      );
      const counts = tally(responses.map((r) => r.status));
      expect(Object.keys(counts).sort()).toEqual(counts[401] ? ['401', '429'] : ['429']);
      expect(counts[401] ?? 0).toBeLessThanOrEqual(5);
      expect(counts[429]).toBeGreaterThanOrEqual(25);
      expectThrottled(responses);
      // the budget is spent: the right password from that address is refused too
      expect((await signIn(o, user.email, PASSWORD, '10.23.1.1')).status).toBe(429);
    },
  );

  it(
    'finding 1: 94 wrong and 1 right sent together — the right one is not let in once the budget is spent',
    { timeout: 180_000 },
    async () => {
      const user = await buildUser(h, tenantId);
      const burst = [...Array.from({ length: 94 }, () => ({ password: 'wrong password!' })), { password: PASSWORD }];
      const responses = await Promise.all(burst.map(({ password }) => signIn(o, user.email, password, '10.23.2.1')));
      const counts = tally(responses.map((r) => r.status));
      const verdicts = (counts[401] ?? 0) + (counts[200] ?? 0);
      expect(verdicts).toBeLessThanOrEqual(5);
      expect(counts[429]).toBeGreaterThanOrEqual(90);
      expectThrottled(responses);
      const right = responses[94];
      // The right password may be let in only when it was among the first five counted, i.e. before
      // five wrong ones had their verdict; once five wrong ones were judged it is refused.
      if ((counts[401] ?? 0) >= 5) expect(right.status).toBe(429);
      if (right.status === 200) expect(counts[401] ?? 0).toBeLessThan(5);
      expect((await signIn(o, user.email, PASSWORD, '10.23.2.1')).status).toBe(right.status === 200 ? 200 : 429);
    },
  );

  it(
    'finding 1: one account guessed at from 60 addresses (TRUST_PROXY) gets at most 20 verdicts',
    { timeout: 180_000 },
    async () => {
      const user = await buildUser(h, tenantId);
      const responses = await Promise.all(
        Array.from({ length: 60 }, (_, i) =>
          signIn(proxied, user.email, 'wrong password!', '127.0.0.1', { 'x-forwarded-for': `10.23.3.${i + 1}` }),
        ),
      );
      const counts = tally(responses.map((r) => r.status));
      expect(counts[401] ?? 0).toBeLessThanOrEqual(20);
      expect(counts[429]).toBeGreaterThanOrEqual(40);
      expectThrottled(responses);
      // the account is blocked for everyone, the right password from a fresh address included
      expect(
        (await signIn(proxied, user.email, PASSWORD, '127.0.0.1', { 'x-forwarded-for': '10.23.3.200' })).status,
      ).toBe(429);
    },
  );

  it(
    '#23 finding 1: 150 concurrent sign-ins from one address against 150 accounts get at most the per-address budget (100) of verdicts, the rest 429',
    { timeout: 180_000 },
    async () => {
      const { perAddress } = DEFAULT_SIGN_IN_THROTTLE;
      // A fresh address each run: the Redis counters outlive the test process.
      const address = `10.${randomInt(24, 250)}.${randomInt(0, 250)}.${randomInt(1, 250)}`;
      const users = await Promise.all(Array.from({ length: 10 }, () => buildUser(h, tenantId)));
      // Every attempt names another account (unknown emails are counted alike), so only the
      // per-address counter can stop them.
      const emails = [
        ...users.map((u) => u.email),
        ...Array.from({ length: 140 }, () => `nobody-${randomUUID()}@example.test`),
      ];
      expect(new Set(emails).size).toBe(150);
      const responses = await Promise.all(emails.map((email) => signIn(o, email, 'wrong password!', address)));
      const counts = tally(responses.map((r) => r.status));
      expect(Object.keys(counts).sort()).toEqual(['401', '429']);
      expect(counts[401]).toBeLessThanOrEqual(perAddress.failures);
      expect(counts[429]).toBeGreaterThanOrEqual(150 - perAddress.failures);
      expectThrottled(responses);
      // The address is blocked, for a right password too; the accounts are not: from elsewhere it signs in.
      expect((await signIn(o, users[0].email, PASSWORD, address)).status).toBe(429);
      const elsewhere = await signIn(o, users[0].email, PASSWORD, `10.22.${randomInt(0, 250)}.${randomInt(1, 250)}`);
      expect(elsewhere.status, elsewhere.text).toBe(200);
    },
  );

  it(
    'finding 1: the OAuth sign-in page counts every guess before judging it (30 concurrent → at most 5 verdicts)',
    { timeout: 180_000 },
    async () => {
      const { post } = await oauthSignInForm(o, '10.23.4.1');
      const burst = [...Array.from({ length: 29 }, () => 'wrong password!'), PASSWORD];
      const responses = await Promise.all(burst.map((password) => post(password)));
      const counts = tally(responses.map((r) => r.statusCode));
      expect((counts[401] ?? 0) + (counts[303] ?? 0)).toBeLessThanOrEqual(5);
      expect(counts[429]).toBeGreaterThanOrEqual(25);
      for (const res of responses.filter((r) => r.statusCode === 429))
        expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      if ((counts[401] ?? 0) >= 5) expect(responses[29].statusCode).toBe(429);
    },
  );

  it(
    '#23 finding 1: the OAuth sign-in page, one account guessed at from 60 addresses (TRUST_PROXY), gets at most 20 verdicts',
    { timeout: 180_000 },
    async () => {
      const { perAccount, perAccountAndAddress } = DEFAULT_SIGN_IN_THROTTLE;
      const { post } = await oauthSignInForm(proxied, '127.0.0.1');
      const responses = await Promise.all(
        Array.from({ length: 60 }, (_, i) => post('wrong password!', { 'x-forwarded-for': `10.23.6.${i + 1}` })),
      );
      const counts = tally(responses.map((r) => r.statusCode));
      expect(Object.keys(counts).sort()).toEqual(['401', '429']);
      expect(counts[401]).toBeLessThanOrEqual(perAccount.failures);
      // More than one address's share was judged: the page counts X-Forwarded-For's addresses.
      expect(counts[401]).toBeGreaterThan(perAccountAndAddress.failures);
      expect(counts[429]).toBeGreaterThanOrEqual(60 - perAccount.failures);
      for (const res of responses.filter((r) => r.statusCode === 429))
        expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      // The account is blocked for everyone: the right password from a fresh address is refused too.
      expect((await post(PASSWORD, { 'x-forwarded-for': '10.23.6.200' })).statusCode).toBe(429);
    },
  );
});
