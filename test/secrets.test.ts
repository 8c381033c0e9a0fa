import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { sql } from 'kysely';
import { harness, type Harness } from './harness.js';
import { buildVenue } from './builders.js';
import { ownApp, type OwnApp } from './own-app.js';

// No credential may reach the logs or the database: the test creates keys, uses them every way a
// client might (header, query string, path, body, GraphQL variables), logs at the most verbose
// level, then scans the captured log stream and a dump of every row of every table.

let h: Harness;
let app: OwnApp;
const PORTIER_SECRET = 'test-server-secret-0123456789abcdef';

/** Longer than any displayed key prefix (12 characters: svc_ + 8, or svc_dk_ + 5). */
const FULL_KEY = /svc_[A-Za-z0-9_-]{9,}/g;

beforeAll(async () => {
  h = await harness();
  app = await ownApp(h, { logLevel: 'trace', env: { portierSecret: PORTIER_SECRET } });
});
afterAll(async () => {
  await app?.close();
});

async function dumpDatabase(): Promise<string[]> {
  const db = h.deps.database.db;
  const tables = await sql<{ table_name: string }>`
    select table_name from information_schema.tables
    where table_schema = current_schema() and table_type = 'BASE TABLE' order by table_name`.execute(db);
  const rows: string[] = [];
  for (const { table_name } of tables.rows) {
    const result = await sql<{ row: string }>`select row_to_json(t)::text as row from ${sql.table(table_name)} t`.execute(db);
    rows.push(...result.rows.map((r) => `${table_name}: ${r.row}`));
  }
  return rows;
}

describe('credentials', () => {
  it('appear neither in the logs nor in a dump of the database', async () => {
    const { tenantId, apiKey, object } = await buildVenue(h);
    const created = await app.graphql(apiKey, 'mutation { createApiKey(name: "integration", scopes: ["catalog:read"]) { apiKey } }');
    expect(created.body.errors).toBeUndefined();
    const secondKey: string = created.body.data.createApiKey.apiKey;
    const secrets = [apiKey, secondKey, PORTIER_SECRET];

    const url = `/api/v1/tenants/${tenantId}/objects/${object.id}/booking-rules`;
    await app.request({ method: 'GET', url, apiKey: secondKey });
    await app.request({ method: 'GET', url, apiKey: `${secondKey}x` });
    await app.request({ method: 'GET', url: `${url}?apiKey=${secondKey}&token=${apiKey}` });
    await app.request({ method: 'GET', url: `/api/v1/${secondKey}` });
    await app.request({ method: 'POST', url: '/api/v1/graphql', apiKey, body: { query: 'query($n: Int) { viewer { id } }', variables: { n: secondKey } } });
    await app.request({ method: 'POST', url: '/api/v1/graphql', apiKey, body: `{"query": "${secondKey}` });
    await app.request({ method: 'GET', url: '/healthz', headers: { authorization: `Bearer ${secondKey}`, cookie: `session=${secondKey}` } });

    expect(app.logs.length).toBeGreaterThan(10);
    const logs = app.logs.join('');
    const rows = await dumpDatabase();
    expect(rows.some((r) => r.startsWith('api_keys:'))).toBe(true);
    const dump = rows.join('\n');

    for (const [where, text] of [['logs', logs], ['database', dump]] as const) {
      for (const secret of secrets) {
        expect(text.includes(secret), `${where} contain a created secret`).toBe(false);
        // Not even the part a displayed prefix hides.
        expect(text.includes(secret.slice(12)), `${where} contain the hidden part of a secret`).toBe(false);
      }
      expect(text.match(FULL_KEY) ?? [], `${where} contain something shaped like a full key`).toEqual([]);
      expect(text).not.toMatch(/Bearer\s+\S/);
    }
  });
});
