import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness, type TestResponse } from './harness.js';
import { ownApp, type OwnApp } from './own-app.js';
import { buildBooking, buildVenue, slotInDays } from './builders.js';
import { jsonMediaTypeFor } from '../src/transport/graphql/planned-lane.js';

// The planned lane (src/transport/graphql/planned-lane.ts): a query text yoga has run as a planned
// operation is answered again without yoga. Every answer it gives must be the bytes, status and
// content type yoga gives; everything it is not sure of (other scopes, other tenants, refusals,
// bodies and Accept headers it does not know) must reach yoga. Each request is made twice on the
// shared app (the first through yoga, the second the lane's) and compared with an app whose fast
// paths are off, and the lane's count of answers shows which of the two answered.

let h: Harness;
let executing: OwnApp;
let venue: Awaited<ReturnType<typeof buildVenue>>;

beforeAll(async () => {
  h = await harness();
  executing = await ownApp(h, { env: { fastPaths: false } });
  venue = await buildVenue(h, { objects: 2 });
  await h.deps.database.db
    .updateTable('objects')
    .set({ name: 'Court "A" \\ 😀\u2028</script>' })
    .where('id', '=', venue.objects[0].id)
    .execute();
  for (let i = 0; i < 4; i += 1) {
    const slot = slotInDays(2 + i, 10);
    await buildBooking(h, venue.tenantId, venue.objects[i % 2].id, {
      start: slot.startTime,
      end: slot.endTime,
      status: i % 2 ? 'CONFIRMED' : 'PENDING',
    });
  }
});

afterAll(async () => {
  await executing.close();
});

const lane = () => {
  const found = h.app.lane;
  if (!found) throw new Error('the shared app has no planned lane');
  return found;
};

interface Sent {
  body: Record<string, unknown>;
  headers?: Record<string, string>;
  apiKey?: string;
}

const send = (app: { request: Harness['request'] }, sent: Sent) =>
  app.request({
    method: 'POST',
    url: '/api/v1/graphql',
    apiKey: sent.apiKey ?? venue.apiKey,
    body: sent.body,
    headers: sent.headers,
  });

const same = (a: TestResponse, b: TestResponse) => {
  expect(a.status).toBe(b.status);
  expect(a.headers['content-type']).toBe(b.headers['content-type']);
  // The same headers, by name (values such as the request id and the rate-limit budget differ per request).
  expect(Object.keys(a.headers).sort()).toEqual(Object.keys(b.headers).sort());
  expect(a.text).toBe(b.text);
};

/** Sends twice on the shared app; returns its second answer, yoga's answer and how many the lane gave. */
async function twice(sent: Sent) {
  const before = lane().answered;
  const first = await send(h, sent);
  const second = await send(h, sent);
  const reference = await send(executing, sent);
  same(first, reference);
  same(second, reference);
  return { answer: second, byLane: lane().answered - before };
}

// The shared app is shared by the worker's test files: texts of this file's own (a comment) are
// learned here, not by another file's requests.
const own = (query: string) => `${query}\n# ${randomUUID()}`;
const LIST = own('{ bookings(first: 100) { id startTime status object { name accommodation { name } } } }');

describe('the planned lane', () => {
  it.each([
    ['the bench list', { query: LIST }],
    [
      'the bench connection',
      {
        query:
          '{ bookingsConnection(status: CONFIRMED, first: 100) { totalCount nodes { id startTime status object { name accommodation { name } } } } }',
      },
    ],
    [
      'variables and an operation name',
      {
        query: 'query Q($s: BookingStatus, $n: Int) { bookings(status: $s, first: $n) { id guestName status } }',
        variables: { s: 'PENDING', n: 3 },
        operationName: 'Q',
      },
    ],
    ['variables null', { query: '{ bookings(first: 2) { id } }', variables: null, operationName: null }],
    [
      'two root fields with aliases',
      { query: '{ a: bookings(first: 1) { __typename id } b: bookingsConnection { totalCount } }' },
    ],
  ])('answers what yoga answers, without yoga the second time: %s', async (_, body) => {
    const { answer, byLane } = await twice({ body: { ...body, query: own(body.query) } });
    expect(answer.status).toBe(200);
    expect(answer.text).toContain('"data"');
    expect(byLane).toBe(1);
  });

  it('answers other variables of a text it learned, and leaves a refusal to yoga', async () => {
    const query = own('query P($n: Int, $t: ID) { bookings(first: $n, tenantId: $t) { id } }');
    expect((await twice({ body: { query, variables: { n: 1 } } })).byLane).toBe(1);
    // Learned: other values are the lane's while the plan accepts them.
    const before = lane().answered;
    same(
      await send(h, { body: { query, variables: { n: 4 } } }),
      await send(executing, { body: { query, variables: { n: 4 } } }),
    );
    expect(lane().answered).toBe(before + 1);
    // Refused by the plan (first out of range, another tenant) or by coercion: yoga answers, with its errors.
    for (const variables of [
      { n: 101 },
      { n: 0 },
      { t: '00000000-0000-4000-8000-000000000000' },
      { n: 'many' },
      { t: 'not-a-uuid' },
    ]) {
      const { answer, byLane } = await twice({ body: { query, variables } });
      expect(byLane, JSON.stringify(variables)).toBe(0);
      expect(answer.text).toContain('"errors"');
    }
  });

  it('leaves a key without the scopes the document needs to yoga (its refusal, its partial data)', async () => {
    await twice({ body: { query: LIST } });
    const catalogOnly = await h.key(venue.tenantId, ['catalog:read']);
    const { answer, byLane } = await twice({ body: { query: LIST }, apiKey: catalogOnly });
    expect(byLane).toBe(0);
    expect(answer.text).toContain('bookings:read');
    const bookingsOnly = await h.key(venue.tenantId, ['bookings:read']);
    // The text is learned: a key holding what it needs is the lane's on both requests.
    const enough = await twice({ body: { query: LIST }, apiKey: bookingsOnly });
    expect(enough.answer.status).toBe(200);
    expect(enough.byLane).toBe(2);
    // A key of another tenant gets its own tenant's (empty) list, not this one's.
    const other = await h.tenant();
    const theirs = await twice({ body: { query: LIST }, apiKey: other.apiKey });
    expect(theirs.answer.body).toEqual({ data: { bookings: [] } });
    expect(theirs.byLane).toBe(2);
  });

  it('answers with the media type yoga picks for the Accept header, and leaves the others to yoga', async () => {
    await twice({ body: { query: LIST } });
    for (const accept of [
      '*/*',
      'application/json',
      'application/graphql-response+json',
      'application/graphql-response+json, application/json;q=0.9',
      'application/json, application/graphql-response+json',
      'application/*',
      'text/event-stream',
      'multipart/mixed',
      'text/event-stream, application/json',
      'text/html',
      'application/json; charset=latin1',
    ]) {
      const { answer, byLane } = await twice({ body: { query: LIST }, headers: { accept } });
      // Learned above: both requests are the lane's, or neither is.
      expect(byLane, accept).toBe(jsonMediaTypeFor(accept) ? 2 : 0);
      if (byLane) expect(answer.headers['content-type']).toBe(`${jsonMediaTypeFor(accept)}; charset=utf-8`);
    }
  });

  it('leaves bodies it does not know to yoga', async () => {
    await twice({ body: { query: LIST } });
    for (const body of [
      { query: LIST, extensions: { persistedQuery: { version: 1, sha256Hash: 'x' } } },
      { query: LIST, variables: 'not an object' },
      { query: LIST, operationName: '' },
      { query: LIST, operationName: 7 },
      { query: `${LIST} `, operationName: 'Nope' },
    ]) {
      const { byLane } = await twice({ body });
      expect(byLane, JSON.stringify(body)).toBe(0);
    }
    // Not JSON of the usual charset: yoga's.
    const { byLane } = await twice({
      body: { query: LIST },
      headers: { 'content-type': 'application/json; charset=utf-16' },
    });
    expect(byLane).toBe(0);
  });

  it('never learns what yoga refused or did not plan', async () => {
    for (const query of [
      '{ bookings { ...F } } fragment F on Booking { id }',
      '{ bookings(first: 2) { id paymentUrl } }',
      '{ bookings { id nope } }',
      '{ bookings(first: 2) { id } __schema { queryType { name } } }',
    ]) {
      const { byLane } = await twice({ body: { query: own(query) } });
      expect(byLane, query).toBe(0);
    }
  });
});

describe('jsonMediaTypeFor', () => {
  it.each([
    [undefined, 'application/json'],
    ['', 'application/json'],
    ['*/*', 'application/json'],
    ['application/json', 'application/json'],
    ['application/graphql-response+json', 'application/graphql-response+json'],
    ['application/graphql-response+json, application/json', 'application/graphql-response+json'],
    ['application/json, application/graphql-response+json', 'application/json'],
    ['application/graphql-response+json;charset=utf-8', 'application/graphql-response+json'],
    ['application/json; charset=iso-8859-1', undefined],
    ['text/event-stream', undefined],
    ['multipart/mixed', undefined],
    ['text/event-stream, application/json', 'application/json'],
    ['application/json, text/event-stream', 'application/json'],
    ['text/html', undefined],
    ['application/*', 'application/json'],
  ])('%j → %j', (accept, expected) => {
    expect(jsonMediaTypeFor(accept)).toBe(expected);
  });
});
