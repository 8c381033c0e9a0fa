import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Redis } from 'ioredis';
import { harness, requester, type Harness, type TestResponse } from './harness.js';
import { buildUser, OWN_ORIGIN, PASSWORD } from './dashboard.js';
import { workerRedisUrl } from './worker-services.js';
import { buildApp, type App } from '../src/transport/http/app.js';
import { createSignInThrottle, type SignInThrottleOptions } from '../src/modules/users/index.js';

// A throttle with short windows, so the test can wait one out: 3 failures of one account from
// one address block it for 2 s; 6 failures of one account from anywhere block it for 2 s.
const SHORT: SignInThrottleOptions = {
  perAccountAndAddress: { failures: 3, windowSeconds: 600, blockSeconds: 2 },
  perAccount: { failures: 6, windowSeconds: 600, blockSeconds: 2 },
  perAddress: { failures: 10, windowSeconds: 600, blockSeconds: 2 },
};

let h: Harness;
let app: App;
let request: ReturnType<typeof requester>;
let tenantId: string;
beforeAll(async () => {
  h = await harness();
  app = await buildApp(h.deps, { signInThrottle: createSignInThrottle(SHORT) });
  await app.fastify.ready();
  request = requester(app.fastify);
  ({ tenantId } = await h.tenant('Throttle tenant'));
});
afterAll(async () => app?.fastify.close());

const attempt = (email: string, password: string, address: string) =>
  request({
    method: 'POST',
    url: '/dashboard/api/session',
    body: { email, password },
    headers: { origin: OWN_ORIGIN },
    remoteAddress: address,
  });

/** Retries until the answer is not 429 (generous limit: a busy machine is slow). */
async function afterTheBlock(send: () => Promise<TestResponse>): Promise<TestResponse> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const res = await send();
    if (res.status !== 429 || Date.now() > deadline) return res;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

describe('sign-in throttling', () => {
  it('blocks an account from an address after repeated failures, even with the right password, then lets the owner in', async () => {
    const user = await buildUser(h, tenantId);
    for (let i = 0; i < 3; i += 1) expect((await attempt(user.email, 'wrong password!', '10.1.0.1')).status).toBe(401);
    const blocked = await attempt(user.email, PASSWORD, '10.1.0.1');
    expect(blocked.status).toBe(429);
    expect(blocked.body.code).toBe('sign_in_throttled');
    expect(Number(blocked.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(blocked.headers['set-cookie']).toBeUndefined();
    // the owner at another address is not locked out by someone else's guesses
    expect((await attempt(user.email, PASSWORD, '10.1.0.2')).status).toBe(200);
    // and after the block window the right password works from the first address too
    const later = await afterTheBlock(() => attempt(user.email, PASSWORD, '10.1.0.1'));
    expect(later.status).toBe(200);
  });

  it('blocks an account guessed at from many addresses, for everyone, for the block window only', async () => {
    const user = await buildUser(h, tenantId);
    for (let i = 0; i < 6; i += 1) await attempt(user.email, 'wrong password!', `10.2.0.${i}`);
    const blocked = await attempt(user.email, PASSWORD, '10.2.1.1');
    expect(blocked.status).toBe(429);
    expect((await afterTheBlock(() => attempt(user.email, PASSWORD, '10.2.1.1'))).status).toBe(200);
  });

  it('treats an unknown email exactly like a known one (the throttle tells nothing either)', async () => {
    const nobody = `nobody-${randomUUID()}@example.test`;
    const answers = [];
    for (let i = 0; i < 4; i += 1) answers.push((await attempt(nobody, 'wrong password!', '10.3.0.1')).status);
    expect(answers).toEqual([401, 401, 401, 429]);
  });

  it('blocks one address trying many accounts', async () => {
    const user = await buildUser(h, tenantId);
    for (let i = 0; i < 10; i += 1)
      await attempt(`guess-${i}-${randomUUID()}@example.test`, 'wrong password!', '10.4.0.1');
    expect((await attempt(user.email, PASSWORD, '10.4.0.1')).status).toBe(429);
    expect((await attempt(user.email, PASSWORD, '10.4.0.2')).status).toBe(200);
  });

  it("a success forgets the account's failures from that address", async () => {
    const user = await buildUser(h, tenantId);
    for (let i = 0; i < 2; i += 1) await attempt(user.email, 'wrong password!', '10.5.0.1');
    expect((await attempt(user.email, PASSWORD, '10.5.0.1')).status).toBe(200);
    for (let i = 0; i < 2; i += 1) expect((await attempt(user.email, 'wrong password!', '10.5.0.1')).status).toBe(401);
    expect((await attempt(user.email, PASSWORD, '10.5.0.1')).status).toBe(200);
  });
});

const redisUrl = workerRedisUrl();
describe.skipIf(!redisUrl)('sign-in throttling shared through Redis (REDIS_URL)', () => {
  const clients: Redis[] = [];
  afterAll(async () => {
    for (const client of clients) await client.quit();
  });

  it('two processes see one count', async () => {
    const connect = async () => {
      const client = new Redis(redisUrl ?? '', { lazyConnect: true });
      clients.push(client);
      await client.connect(); // a client not yet ready counts in memory (the insurance limiter)
      return client;
    };
    const store = (redis: Redis) => ({
      kind: 'redis' as const,
      redis,
      close: () => redis.quit().then(() => undefined),
    });
    const one = createSignInThrottle(SHORT, store(await connect()));
    const two = createSignInThrottle(SHORT, store(await connect()));
    const guess = { account: `shared-${randomUUID()}@example.test`, address: '10.6.0.1' };
    const fail = async (throttle: typeof one) => {
      const ticket = await throttle.take(guess);
      if (!ticket.allowed) throw new Error('refused too early');
      await ticket.judged(false);
    };
    await fail(one);
    await fail(two);
    await fail(one);
    // three failures (the limit) counted across both processes: the next attempt is refused
    const refused = await two.take(guess);
    expect(refused.allowed).toBe(false);
    if (!refused.allowed) expect(refused.retryAfterSeconds).toBeGreaterThanOrEqual(1);
  });
});
