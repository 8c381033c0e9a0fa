import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { buildBooking, buildVenue } from './builders.js';

// Issue #43: markNoShow (after the start, CONFIRMED only) and the cancellation reason (a code and
// free text), through GraphQL and REST, in the answer, the events, the audit log and the CSV.

let h: Harness;
beforeAll(async () => {
  h = await harness();
});
beforeEach(() => h.clock.set('2026-11-20T09:00:00Z'));
afterEach(() => h.clock.set(null));

async function confirmedBooking(status: 'CONFIRMED' | 'PENDING' | 'COMPLETED' | 'CANCELLED' = 'CONFIRMED') {
  const v = await buildVenue(h);
  const booking = await buildBooking(h, v.tenantId, v.object.id, {
    start: '2026-11-20T10:00:00Z',
    end: '2026-11-20T11:00:00Z',
    status,
  });
  return { v, booking, url: `/api/v1/tenants/${v.tenantId}/bookings/${booking.id}` };
}

const eventsOf = async (tenantId: string) =>
  h.deps.database.db
    .selectFrom('events')
    .select(['type', 'data'])
    .where('tenant_id', '=', tenantId)
    .orderBy('created_at')
    .orderBy('seq')
    .execute();

const auditOf = async (tenantId: string) =>
  h.deps.database.db
    .selectFrom('audit_log')
    .select(['action', 'target_id', 'details', 'actor_type'])
    .where('tenant_id', '=', tenantId)
    .orderBy('id')
    .execute();

const MARK = 'mutation($id: ID!) { markNoShow(bookingId: $id) { booking { id status noShowAt } } }';

describe('markNoShow', () => {
  it('refuses before the start with a conflict naming the start, and changes nothing', async () => {
    const { v, booking, url } = await confirmedBooking();
    const res = await h.graphql(v.apiKey, MARK, { id: booking.id });
    expect(res.body.errors[0].extensions.code).toBe('CONFLICT');
    expect(res.body.errors[0].message).toContain('2026-11-20T10:00:00.000Z');
    expect(res.body.errors[0].message).toContain('only after its start');
    const rest = await h.request({ method: 'POST', url: `${url}/no-show`, apiKey: v.apiKey, body: {} });
    expect(rest.status).toBe(409);
    expect(rest.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(rest.body.code).toBe('no_show_before_start');
    const after = await h.request({ method: 'GET', url, apiKey: v.apiKey });
    expect(after.body.booking).toMatchObject({ status: 'CONFIRMED', noShowAt: null });
    expect(await eventsOf(v.tenantId)).toEqual([]);
  });

  it('marks a CONFIRMED booking after its start: noShowAt, booking.no_show, audited, once', async () => {
    const { v, booking, url } = await confirmedBooking();
    h.clock.set('2026-11-20T10:20:00Z');
    const rest = await h.request({ method: 'POST', url: `${url}/no-show`, apiKey: v.apiKey, body: {} });
    expect(rest.status).toBe(200);
    expect(rest.body.booking).toMatchObject({
      id: booking.id,
      status: 'CONFIRMED',
      noShowAt: '2026-11-20T10:20:00.000Z',
      cancellationReasonCode: null,
    });
    const events = await eventsOf(v.tenantId);
    expect(events.map((e) => e.type)).toEqual(['booking.no_show']);
    expect(events[0]?.data).toMatchObject({
      booking: { id: booking.id, status: 'CONFIRMED', noShowAt: '2026-11-20T10:20:00.000Z' },
      sequence: expect.any(Number),
    });
    expect(await auditOf(v.tenantId)).toEqual([
      expect.objectContaining({
        action: 'booking.no_show_marked',
        target_id: booking.id,
        actor_type: 'apiKey',
        details: expect.objectContaining({ noShowAt: '2026-11-20T10:20:00.000Z' }),
      }),
    ]);
    // The listing (its SQL-written JSON) and GraphQL's planned listing show it too.
    const list = await h.request({ method: 'GET', url: `/api/v1/tenants/${v.tenantId}/bookings`, apiKey: v.apiKey });
    expect(list.body.bookings[0]).toMatchObject({ noShowAt: '2026-11-20T10:20:00.000Z', cancellationReason: null });
    const gql = await h.graphql(v.apiKey, '{ bookings { id noShowAt cancellationReasonCode } }');
    expect(gql.body.data.bookings).toEqual([
      { id: booking.id, noShowAt: '2026-11-20T10:20:00.000Z', cancellationReasonCode: null },
    ]);
    // Twice: a conflict, the first mark kept.
    const again = await h.graphql(v.apiKey, MARK, { id: booking.id });
    expect(again.body.errors[0]).toMatchObject({ extensions: { code: 'CONFLICT' } });
    expect(again.body.errors[0].message).toContain('already');
    expect((await eventsOf(v.tenantId)).length).toBe(1);
    // A no-show can still be completed (the venue settles it); the mark stays.
    const done = await h.request({ method: 'PATCH', url, apiKey: v.apiKey, body: { status: 'COMPLETED' } });
    expect(done.body.booking).toMatchObject({ status: 'COMPLETED', noShowAt: '2026-11-20T10:20:00.000Z' });
  });

  it.each(['PENDING', 'CANCELLED', 'COMPLETED'] as const)('refuses a %s booking', async (status) => {
    const { v, booking } = await confirmedBooking(status);
    h.clock.set('2026-11-20T12:00:00Z');
    const res = await h.graphql(v.apiKey, MARK, { id: booking.id });
    expect(res.body.errors[0].extensions.code).toBe('CONFLICT');
    expect(res.body.errors[0].message).toBe(`A ${status} booking cannot be marked a no-show: only a CONFIRMED one`);
  });

  it("is 404 for another tenant's booking and needs bookings:write", async () => {
    const { booking, url } = await confirmedBooking();
    const other = await buildVenue(h);
    h.clock.set('2026-11-20T12:00:00Z');
    const res = await h.graphql(other.apiKey, MARK, { id: booking.id });
    expect(res.body.errors[0].extensions.code).toBe('NOT_FOUND');
    const readOnly = await h.key((await confirmedBooking()).v.tenantId, ['bookings:read']);
    const denied = await h.request({ method: 'POST', url: `${url}/no-show`, apiKey: readOnly, body: {} });
    expect(denied.status).toBe(403);
  });
});

describe('cancellation reason', () => {
  it('is stored, answered, carried by booking.cancelled, audited and exported', async () => {
    const { v, booking, url } = await confirmedBooking();
    const text = '=HYPERLINK("x") storm; "net" torn\nsee log';
    const res = await h.request({
      method: 'PATCH',
      url,
      apiKey: v.apiKey,
      body: { status: 'CANCELLED', reasonCode: 'WEATHER', reason: `  ${text}  ` },
    });
    expect(res.status).toBe(200);
    expect(res.body.booking).toMatchObject({
      status: 'CANCELLED',
      cancellationReasonCode: 'WEATHER',
      cancellationReason: text,
    });
    const events = await eventsOf(v.tenantId);
    expect(events.map((e) => e.type)).toContain('booking.cancelled');
    const cancelled = events.find((e) => e.type === 'booking.cancelled');
    expect(cancelled?.data).toMatchObject({
      cancellationReason: { code: 'WEATHER', text },
      booking: { cancellationReasonCode: 'WEATHER', cancellationReason: text },
    });
    expect(await auditOf(v.tenantId)).toEqual([
      expect.objectContaining({
        action: 'booking.cancelled',
        target_id: booking.id,
        details: { reasonCode: 'WEATHER', reason: text },
      }),
    ]);
    const csv = await h.request({
      method: 'GET',
      url: `/api/v1/tenants/${v.tenantId}/bookings/export.csv`,
      apiKey: v.apiKey,
    });
    const [header, row] = csv.text.split('\r\n');
    expect(header?.split(',').slice(-3)).toEqual(['no_show_at', 'cancellation_reason_code', 'cancellation_reason']);
    // The formula is neutralised and the quotes doubled (RFC 4180), the newline kept inside the quotes.
    expect(csv.text).toContain(`,WEATHER,"'=HYPERLINK(""x"") storm; ""net"" torn\nsee log"`);
    expect(row).toBeDefined();
  });

  it('through GraphQL updateBookingStatus, and text alone means OTHER', async () => {
    const { v, booking } = await confirmedBooking();
    const res = await h.graphql(
      v.apiKey,
      'mutation($id: ID!) { updateBookingStatus(bookingId: $id, status: CANCELLED, reason: "Double entry by phone") { booking { status cancellationReasonCode cancellationReason } } }',
      { id: booking.id },
    );
    expect(res.body.data.updateBookingStatus.booking).toEqual({
      status: 'CANCELLED',
      cancellationReasonCode: 'OTHER',
      cancellationReason: 'Double entry by phone',
    });
  });

  it('a cancellation without a reason stores none and is audited with nulls', async () => {
    const { v, url } = await confirmedBooking();
    const res = await h.request({ method: 'PATCH', url, apiKey: v.apiKey, body: { status: 'CANCELLED' } });
    expect(res.body.booking).toMatchObject({ cancellationReasonCode: null, cancellationReason: null });
    const cancelled = (await eventsOf(v.tenantId)).find((e) => e.type === 'booking.cancelled');
    expect(cancelled?.data).not.toHaveProperty('cancellationReason');
    expect((await auditOf(v.tenantId))[0]?.details).toEqual({ reasonCode: null, reason: null });
  });

  it.each([
    [{ status: 'CANCELLED', reason: 'x'.repeat(501) }, 'reason', 'at most 500 characters (it has 501)'],
    [{ status: 'CANCELLED', reasonCode: 'OTHER' }, 'reason', 'say why in reason when the code is OTHER'],
    [
      { status: 'COMPLETED', reasonCode: 'WEATHER' },
      'reasonCode',
      'a cancellation reason goes only with status CANCELLED',
    ],
    [{ status: 'CANCELLED', reason: 'a\u0007b' }, 'reason', 'must not contain control characters'],
  ])('refuses %j with a 400 naming %s', async (body, field, message) => {
    const { v, url } = await confirmedBooking();
    const res = await h.request({ method: 'PATCH', url, apiKey: v.apiKey, body });
    expect(res.status).toBe(400);
    expect(res.headers['content-type']).toMatch(/application\/problem\+json/);
    expect(res.body.errors).toEqual([{ field, message: expect.stringContaining(message) }]);
    const after = await h.request({ method: 'GET', url, apiKey: v.apiKey });
    expect(after.body.booking.status).toBe('CONFIRMED');
  });

  it('refuses an unknown code', async () => {
    const { v, url } = await confirmedBooking();
    const res = await h.request({
      method: 'PATCH',
      url,
      apiKey: v.apiKey,
      body: { status: 'CANCELLED', reasonCode: 'RAIN' },
    });
    expect(res.status).toBe(400);
    expect(res.text).toContain('reasonCode');
  });
});
