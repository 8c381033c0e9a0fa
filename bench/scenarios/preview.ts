import type { Options, Request } from 'autocannon';

/**
 * Load scenario for the price preview, `POST {baseUrl}/api/pricing/preview`.
 *
 * Returns an autocannon options object; the bench runner may override connections, duration and
 * the like. Requests cycle over every object id × `slotsPerObject` two-hour ranges, one per day
 * starting at `firstStart`, so the server prices different objects, weekdays and windows rather than
 * one cached case. The key needs the scope `pricing:read`; the objects must be its tenant's.
 * A 2xx answer is the expected outcome of every request.
 *
 * @example
 *   import autocannon from 'autocannon';
 *   const result = await autocannon(previewScenario({ baseUrl, apiKey, objectIds }));
 */
export interface PreviewScenarioInput {
  /** e.g. http://127.0.0.1:3000 (no trailing /api). */
  baseUrl: string;
  /** svc_… with pricing:read. */
  apiKey: string;
  objectIds: readonly string[];
  /** Start of the first range (default 2030-01-07T16:00:00Z, a Monday at 17:00 in Berlin). */
  firstStart?: Date;
  /** Ranges per object (default 7: one for each weekday). */
  slotsPerObject?: number;
}

const HOUR = 3_600_000;
const DAY = 24 * HOUR;

export function previewScenario(input: PreviewScenarioInput): Options {
  if (input.objectIds.length === 0) throw new Error('previewScenario needs at least one object id');
  const firstStart = input.firstStart ?? new Date('2030-01-07T16:00:00Z');
  const slots = input.slotsPerObject ?? 7;
  const headers = { 'content-type': 'application/json', authorization: `Bearer ${input.apiKey}` };
  const requests: Request[] = [];
  for (const objectId of input.objectIds) {
    for (let slot = 0; slot < slots; slot += 1) {
      const start = new Date(firstStart.getTime() + slot * DAY);
      const end = new Date(start.getTime() + 2 * HOUR);
      requests.push({
        method: 'POST',
        path: '/api/pricing/preview',
        headers,
        body: JSON.stringify({ objectId, startTime: start.toISOString(), endTime: end.toISOString() }),
      });
    }
  }
  return {
    title: 'POST /api/pricing/preview',
    url: new URL('/api/pricing/preview', input.baseUrl).toString(),
    method: 'POST',
    headers,
    requests,
    connections: 10,
    duration: 10,
  };
}
