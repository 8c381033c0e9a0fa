import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { harness, type Harness, type TestResponse } from './harness.js';
import { buildVenue } from './builders.js';
import { ownApp } from './own-app.js';

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
beforeEach(() => h.clock.set('2026-11-20T09:00:00Z'));
afterEach(() => h.clock.set(null));

type Venue = Awaited<ReturnType<typeof buildVenue>>;

// Local Berlin times on Saturday 2026-11-21 (UTC+1).
const at = (hhmm: string) => `2026-11-21T${hhmm}:00+01:00`;
const body = (v: Venue, start = '10:00', end = '11:00') => ({
  objectId: v.object.id,
  guestName: 'Ada',
  guestEmail: 'ada@example.com',
  startTime: at(start),
  endTime: at(end),
});

function create(v: Venue, key: string, payload: unknown = body(v), apiKey = v.apiKey, request = h.request) {
  return request({
    method: 'POST',
    url: `/api/v1/tenants/${v.tenantId}/bookings`,
    apiKey,
    body: payload,
    headers: { 'idempotency-key': key },
  });
}

const bookingsOf = (tenantId: string) =>
  h.deps.database.db.selectFrom('bookings').select('id').where('tenant_id', '=', tenantId).execute();
const replayed = (r: TestResponse) => r.headers['idempotent-replayed'] === 'true';

describe('Idempotency-Key on REST', () => {
  it('20 concurrent identical creates with one key make one booking; every answer is the 201, its replay or 409 in progress', async () => {
    const v = await buildVenue(h);
    const results = await Promise.all(Array.from({ length: 20 }, () => create(v, 'order-1')));
    const firsts = results.filter((r) => r.status === 201 && !replayed(r));
    expect(firsts).toHaveLength(1);
    const id = firsts[0].body.booking.id as string;
    for (const r of results) {
      if (r.status === 201) expect(r.body.booking.id).toBe(id);
      else expect(r).toMatchObject({ status: 409, body: { code: 'idempotency_key_in_progress' } });
    }
    expect(await bookingsOf(v.tenantId)).toHaveLength(1);
    const events = await h.deps.database.db
      .selectFrom('events')
      .select('id')
      .where('tenant_id', '=', v.tenantId)
      .execute();
    expect(events).toHaveLength(1);

    // After the first finished, a retry is always the replay: status, body and headers.
    for (let i = 0; i < 3; i += 1) {
      const retry = await create(v, 'order-1');
      expect(retry.status).toBe(201);
      expect(replayed(retry)).toBe(true);
      expect(retry.text).toBe(firsts[0].text);
      expect(retry.headers['content-type']).toBe(firsts[0].headers['content-type']);
      expect(retry.headers['x-request-id']).not.toBe(firsts[0].headers['x-request-id']);
    }
    expect(await bookingsOf(v.tenantId)).toHaveLength(1);
  });

  it('refuses the same key with a different body (422) and changes nothing', async () => {
    const v = await buildVenue(h);
    expect((await create(v, 'k')).status).toBe(201);
    const other = await create(v, 'k', body(v, '12:00', '13:00'));
    expect(other.status).toBe(422);
    expect(other.headers['content-type']).toMatch(/problem\+json/);
    expect(other.body).toMatchObject({ status: 422, code: 'idempotency_key_reused' });
    expect(await bookingsOf(v.tenantId)).toHaveLength(1);
    // The same fields in another order are the same request.
    const b = body(v);
    const reordered = await create(v, 'k', {
      endTime: b.endTime,
      startTime: b.startTime,
      guestEmail: b.guestEmail,
      guestName: b.guestName,
      objectId: b.objectId,
    });
    expect(replayed(reordered)).toBe(true);
  });

  it('replays after a restart: a new process on the same database answers from the key', async () => {
    const v = await buildVenue(h);
    const first = await create(v, 'restart');
    const second = await ownApp(h);
    try {
      const retry = await create(v, 'restart', body(v), v.apiKey, second.request);
      expect(retry.status).toBe(201);
      expect(replayed(retry)).toBe(true);
      expect(retry.text).toBe(first.text);
    } finally {
      await second.close();
    }
    expect(await bookingsOf(v.tenantId)).toHaveLength(1);
  });

  it('keeps keys apart per credential: another key’s same Idempotency-Key runs on its own', async () => {
    const v = await buildVenue(h);
    const otherKey = await h.key(v.tenantId, ['bookings:write']);
    expect((await create(v, 'shared')).status).toBe(201);
    const other = await create(v, 'shared', body(v, '12:00', '13:00'), otherKey);
    expect(other.status).toBe(201);
    expect(replayed(other)).toBe(false);
    // And the same request under the other credential is not the first one's replay either.
    const same = await create(v, 'shared-2', body(v, '14:00', '15:00'));
    const sameOther = await create(v, 'shared-2', body(v, '14:00', '15:00'), otherKey);
    expect(same.status).toBe(201);
    expect(sameOther).toMatchObject({ status: 409, body: { code: 'slot_unavailable' } });
    expect(await bookingsOf(v.tenantId)).toHaveLength(3);
  });

  it('replays a validation failure and a status change (PATCH)', async () => {
    const v = await buildVenue(h);
    const bad = await create(v, 'bad', { ...body(v), guestEmail: 'nope' });
    expect(bad.status).toBe(400);
    const again = await create(v, 'bad', { ...body(v), guestEmail: 'nope' });
    expect(again.status).toBe(400);
    expect(replayed(again)).toBe(true);
    expect(again.text).toBe(bad.text);

    const created = await create(v, 'c');
    const url = `/api/v1/tenants/${v.tenantId}/bookings/${created.body.booking.id}`;
    const patch = () =>
      h.request({
        method: 'PATCH',
        url,
        apiKey: v.apiKey,
        body: { status: 'CONFIRMED' },
        headers: { 'idempotency-key': 'confirm' },
      });
    const confirmed = await patch();
    expect(confirmed.status).toBe(200);
    const retry = await patch();
    // Without the key this would be 409 invalid_transition (CONFIRMED → CONFIRMED).
    expect(retry.status).toBe(200);
    expect(replayed(retry)).toBe(true);
    const events = await h.deps.database.db
      .selectFrom('events')
      .select('type')
      .where('tenant_id', '=', v.tenantId)
      .execute();
    expect(events.map((e) => e.type).sort()).toEqual(['booking.confirmed', 'booking.created']);
  });

  it('does not keep a 5xx: the retry runs again', async () => {
    const v = await buildVenue(h);
    let calls = 0;
    const app = await ownApp(h, {
      logLevel: 'silent',
      setup: (fastify) => {
        fastify.post('/api/v1/tenants/:tenantId/flaky', { config: { auth: 'apiKey' } }, () => {
          calls += 1;
          if (calls === 1) throw new Error('boom');
          return { calls };
        });
      },
    });
    try {
      const send = () =>
        app.request({
          method: 'POST',
          url: `/api/v1/tenants/${v.tenantId}/flaky`,
          apiKey: v.apiKey,
          body: {},
          headers: { 'idempotency-key': 'f' },
        });
      expect((await send()).status).toBe(500);
      const second = await send();
      expect(second).toMatchObject({ status: 200, body: { calls: 2 } });
      expect(replayed(second)).toBe(false);
      const third = await send();
      expect(third).toMatchObject({ status: 200, body: { calls: 2 } });
      expect(replayed(third)).toBe(true);
      expect(calls).toBe(2);
    } finally {
      await app.close();
    }
  });

  it('refuses a malformed key with a 400 naming the header', async () => {
    const v = await buildVenue(h);
    for (const key of ['', 'x'.repeat(256), 'tab\tkey']) {
      const res = await create(v, key);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'invalid_idempotency_key', errors: [{ field: 'Idempotency-Key' }] });
    }
    expect(await bookingsOf(v.tenantId)).toHaveLength(0);
  });

  it('ignores the header on reads', async () => {
    const v = await buildVenue(h);
    const res = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${v.tenantId}/bookings`,
      apiKey: v.apiKey,
      headers: { 'idempotency-key': 'read' },
    });
    expect(res.status).toBe(200);
    const rows = await h.deps.database.db
      .selectFrom('idempotency_keys')
      .select('key')
      .where('tenant_id', '=', v.tenantId)
      .execute();
    expect(rows).toEqual([]);
  });

  it('keys the price preview', async () => {
    const v = await buildVenue(h);
    const preview = () =>
      h.request({
        method: 'POST',
        url: '/api/pricing/preview',
        apiKey: v.apiKey,
        body: { objectId: v.object.id, startTime: at('10:00'), endTime: at('11:00') },
        headers: { 'idempotency-key': 'p' },
      });
    const first = await preview();
    expect(first.status).toBe(200);
    const second = await preview();
    expect(replayed(second)).toBe(true);
    expect(second.text).toBe(first.text);
  });

  it('forgets keys after 24 hours: the same key runs again, and old rows are pruned', async () => {
    const v = await buildVenue(h);
    // A keyed request at today's real time first (as another file sharing this app may have
    // made): a clock that then reads an earlier time must still prune.
    h.clock.set(null);
    await create(v, 'real-time', body(v, '16:00', '17:00'));
    h.clock.set('2026-11-20T09:00:00Z');
    expect((await create(v, 'day')).status).toBe(201);
    h.clock.set('2026-11-21T09:00:01Z');
    // A new request under the old key runs (here: the slot is taken, and the start is past).
    const later = await create(v, 'day', body(v, '12:00', '13:00'));
    expect(replayed(later)).toBe(false);
    expect(later.status).not.toBe(422);
    const deadline = Date.now() + 20_000;
    h.clock.set('2026-11-22T09:00:02Z');
    await create(v, 'trigger-prune');
    for (;;) {
      const rows = await h.deps.database.db
        .selectFrom('idempotency_keys')
        .select('key')
        .where('tenant_id', '=', v.tenantId)
        .execute();
      if (rows.every((r) => r.key === 'trigger-prune' || r.key === 'real-time')) break;
      if (Date.now() > deadline) throw new Error(`not pruned: ${JSON.stringify(rows)}`);
      await new Promise((r) => setTimeout(r, 50));
    }
  });
});

describe('Idempotency-Key on GraphQL', () => {
  const MUTATION = `mutation Create($tenantId: ID, $objectId: ID!, $startTime: DateTime!, $endTime: DateTime!) {
    createBooking(tenantId: $tenantId, objectId: $objectId, guestName: "Ada", guestEmail: "ada@example.com", startTime: $startTime, endTime: $endTime) { booking { id } }
  }`;

  const gql = (v: Venue, key: string, query: string, variables: Record<string, unknown>) =>
    h.request({
      method: 'POST',
      url: '/api/v1/graphql',
      apiKey: v.apiKey,
      body: { query, variables },
      headers: { 'idempotency-key': key },
    });

  it('replays a mutation and refuses other variables under the key', async () => {
    const v = await buildVenue(h);
    const vars = { tenantId: v.tenantId, objectId: v.object.id, startTime: at('10:00'), endTime: at('11:00') };
    const first = await gql(v, 'g', MUTATION, vars);
    expect(first.body.data.createBooking.booking.id).toBeTruthy();
    const second = await gql(v, 'g', MUTATION, vars);
    expect(replayed(second)).toBe(true);
    expect(second.text).toBe(first.text);
    const changed = await gql(v, 'g', MUTATION, { ...vars, startTime: at('12:00'), endTime: at('13:00') });
    expect(changed.status).toBe(422);
    expect(changed.body.errors[0].extensions).toMatchObject({
      code: 'UNPROCESSABLE',
      reason: 'idempotency_key_reused',
    });
    expect(await bookingsOf(v.tenantId)).toHaveLength(1);
  });

  it('does not key queries', async () => {
    const v = await buildVenue(h);
    const res = await gql(v, 'q', 'query { bookings { id } }', {});
    expect(res.status).toBe(200);
    const again = await gql(v, 'q', 'query { bookings(first: 5) { id } }', {});
    expect(again.status).toBe(200);
    expect(replayed(again)).toBe(false);
  });
});
