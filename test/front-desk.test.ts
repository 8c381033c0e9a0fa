import { beforeAll, describe, expect, it } from 'vitest';
import { harness, type Harness } from './harness.js';
import { seedDemo } from '../src/app/demo.js';
import { prefersHtml } from '../src/transport/http/dashboard.js';

// Server-side parts of the front-desk issue (#24): `GET /` in a browser opens the dashboard, and
// the demo tenant has a door per court. The dashboard itself: test/e2e/dashboard-desk.test.ts.

let h: Harness;
beforeAll(async () => {
  h = await harness();
}, 300_000);

const BROWSER_ACCEPT = 'text/html,application/xhtml+xml,application/xml;q=0.9,image/avif,image/webp,*/*;q=0.8';

describe('GET /', () => {
  it('sends a browser to /dashboard/', async () => {
    const res = await h.request({ method: 'GET', url: '/', headers: { accept: BROWSER_ACCEPT } });
    expect(res.status).toBe(302);
    expect(res.headers.location).toBe('/dashboard/');
    const query = await h.request({ method: 'GET', url: '/?utm=x', headers: { accept: 'text/html' } });
    expect(query.status).toBe(302);
    expect(query.headers.location).toBe('/dashboard/');
  });

  it('keeps answering API clients (no Accept, */*, JSON) with the JSON 404 they always had', async () => {
    for (const accept of [undefined, '*/*', 'application/json', 'application/json, text/html;q=0.5', 'text/html;q=0']) {
      const res = await h.request({ method: 'GET', url: '/', headers: accept ? { accept } : {} });
      expect(res.status, accept).toBe(404);
      expect(res.headers['content-type'], accept).toMatch(/^application\/problem\+json/);
      expect(res.body, accept).toMatchObject({ code: 'route_not_found' });
    }
    // Only GET: other methods and other paths are unchanged.
    const post = await h.request({ method: 'POST', url: '/', headers: { accept: 'text/html' }, body: {} });
    expect(post.status).toBe(404);
    const other = await h.request({ method: 'GET', url: '/nothing-here', headers: { accept: BROWSER_ACCEPT } });
    expect(other.status).toBe(404);
  });

  it.each([
    [undefined, false],
    ['', false],
    ['*/*', false],
    ['text/html', true],
    ['application/xhtml+xml', true],
    [BROWSER_ACCEPT, true],
    ['application/json', false],
    ['application/json, text/html', true],
    ['application/json, text/html;q=0.9', false],
    ['text/html;q=0', false],
    ['text/html;q=abc', false],
    ['TEXT/HTML', true],
  ])('prefersHtml(%j) is %s', (accept, expected) => {
    expect(prefersHtml(accept)).toBe(expected);
  });
});

describe('the demo tenant', () => {
  it('has one door per court, each opening only its court and driven by no device', async () => {
    const rollback = new Error('rollback');
    const seen = await h.deps.database.db
      .transaction()
      .execute(async (trx) => {
        const demo = await seedDemo(trx, new Date());
        expect(demo.doorIds).toHaveLength(demo.objectIds.length);
        const doors = await trx
          .selectFrom('doors')
          .select(['id', 'name', 'gpio_pin'])
          .where('tenant_id', '=', demo.tenantId)
          .orderBy('name')
          .execute();
        const links = await trx
          .selectFrom('door_objects')
          .select(['door_id', 'object_id'])
          .where('door_id', 'in', demo.doorIds)
          .execute();
        const driven = await trx
          .selectFrom('device_doors')
          .select('door_id')
          .where('door_id', 'in', demo.doorIds)
          .execute();
        throw Object.assign(rollback, { seen: { demo, doors, links, driven } });
      })
      .catch((error: unknown) => {
        if (error !== rollback) throw error;
        return (rollback as Error & { seen: unknown }).seen as {
          demo: Awaited<ReturnType<typeof seedDemo>>;
          doors: { id: string; name: string; gpio_pin: number }[];
          links: { door_id: string; object_id: string }[];
          driven: unknown[];
        };
      });
    expect(seen.doors.map((d) => [d.name, d.gpio_pin])).toEqual([
      ['Court 1 door', 17],
      ['Court 2 door', 27],
    ]);
    expect(seen.links).toHaveLength(2);
    // Issue #41: its booking page is enabled, with both courts published.
    expect(seen.demo.bookingPageSlug).toBe('sportpark-demo');
    for (const [index, doorId] of seen.demo.doorIds.entries()) {
      expect(seen.links.filter((l) => l.door_id === doorId).map((l) => l.object_id)).toEqual([
        seen.demo.objectIds[index],
      ]);
    }
    expect(seen.driven).toEqual([]);
  });
});
