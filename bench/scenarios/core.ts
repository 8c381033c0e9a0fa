import type { RequestSource } from '../load.js';
import type { Dataset } from '../dataset.js';

// Request sources for the booking, listing and availability scenarios.

const json = (apiKey: string) => ({ authorization: `Bearer ${apiKey}`, 'content-type': 'application/json' });

export const GRAPHQL_BOOKINGS_QUERY =
  '{ bookings(first: 100) { id startTime status object { name accommodation { name } } } }';

export function graphqlBookings(d: Dataset): RequestSource {
  const body = JSON.stringify({ query: GRAPHQL_BOOKINGS_QUERY });
  return () => ({ method: 'POST', path: '/api/v1/graphql', headers: json(d.apiKey), body });
}

export function restListBookings(d: Dataset): RequestSource {
  return (i) => ({
    method: 'GET',
    path: `/api/v1/tenants/${d.tenantId}/bookings?pageSize=100&page=${(i % 50) + 1}`,
    headers: { authorization: `Bearer ${d.apiKey}` },
  });
}

export function availability(d: Dataset): RequestSource {
  return (i) => ({
    method: 'GET',
    path: `/api/v1/tenants/${d.tenantId}/objects/availability?date=${d.busyDate}&accommodationId=${d.accommodationIds[i % d.accommodationIds.length]}`,
    headers: { authorization: `Bearer ${d.apiKey}` },
  });
}

/** Each request books a distinct free hour: object i % n, on day freeFrom + ⌊i / (n·12)⌋, hour 08–19 Berlin. */
export function createBookings(d: Dataset, offset = 0): RequestSource {
  const n = d.objectIds.length;
  return (iRaw) => {
    const i = iRaw + offset;
    const object = d.objectIds[i % n];
    const slot = Math.floor(i / n);
    const day = Math.floor(slot / 12);
    const hour = 8 + (slot % 12);
    const start = new Date(d.freeFrom.getTime() + day * 86_400_000 + (hour - 1) * 3_600_000); // 08:00 Berlin ≈ 07:00 UTC in winter
    const end = new Date(start.getTime() + 3_600_000);
    return {
      method: 'POST',
      path: `/api/v1/tenants/${d.tenantId}/bookings`,
      headers: json(d.apiKey),
      body: JSON.stringify({
        objectId: object,
        guestName: 'Bench Guest',
        guestEmail: 'bench@example.com',
        startTime: start.toISOString(),
        endTime: end.toISOString(),
      }),
    };
  };
}

/** Two-hour quotes that rotate over objects and days (so weekday, peak and duration rules apply). */
export function preview(d: Dataset): RequestSource {
  const n = d.objectIds.length;
  return (i) => {
    const start = new Date(d.freeFrom.getTime() + (i % 14) * 86_400_000 + (15 + (i % 5)) * 3_600_000);
    return {
      method: 'POST',
      path: '/api/pricing/preview',
      headers: json(d.apiKey),
      body: JSON.stringify({
        objectId: d.objectIds[i % n],
        startTime: start.toISOString(),
        endTime: new Date(start.getTime() + 7_200_000).toISOString(),
      }),
    };
  };
}

export const SEARCH_BOOKINGS_QUERY =
  'query ($q: String) { bookingsConnection(search: $q, first: 20) { totalCount edges { node { id guestName guestEmail startTime status } } } }';

/**
 * Bookings search (docs/dashboard-ui.md#find-and-export): a fragment of one guest's name ("t 123-7",
 * a few matches), of an email ("st45.1", a few dozen) or a common one ("guest 3", hundreds),
 * rotating, each with the total — the dashboard's search box.
 */
export function searchBookings(d: Dataset): RequestSource {
  const n = d.objectIds.length;
  return (i) => {
    const o = (i * 7) % n;
    const kind = i % 3;
    const q = kind === 0 ? `t ${o}-${i % 20}` : kind === 1 ? `st${o}.1` : `guest ${i % 10}`;
    return {
      method: 'POST',
      path: '/api/v1/graphql',
      headers: json(d.apiKey),
      body: JSON.stringify({ query: SEARCH_BOOKINGS_QUERY, variables: { q } }),
    };
  };
}

/**
 * Bookings search by a fragment of a guest's name only (issue #24: "within 50 ms p95 on
 * --scale=large"): "uest 3-1" style fragments of the bench tenant's names. Most of their trigrams
 * ("ues", "est", "st ", "t 3") are in every filler tenant's "Guest N" names (~1,000,000 rows), so the
 * trigram index must intersect them with the rarer ones. Run at a fixed rate, so its p95 is the
 * latency a desk sees.
 */
export function searchByNameFragment(d: Dataset): RequestSource {
  const n = d.objectIds.length;
  return (i) => {
    const q = `uest ${(i * 7) % n}-${i % 30}`;
    return {
      method: 'POST',
      path: '/api/v1/graphql',
      headers: json(d.apiKey),
      body: JSON.stringify({ query: SEARCH_BOOKINGS_QUERY, variables: { q } }),
    };
  };
}
