import { describe, expect, it } from 'vitest';
import { databaseSettings, runCli } from './processes.js';
import { openDatabase } from '../src/kernel/db/database.js';
import { sha256 } from '../src/kernel/crypto.js';

// `oauth-app create` as a real process: one JSON document, the secret shown once and stored hashed.

describe('cli oauth-app', () => {
  it('creates a confidential and a public app, rotates a secret, and refuses bad input with a clear message', async () => {
    const { env, pgliteDir } = await databaseSettings();
    const tenant = await runCli(['tenant', 'create', '--name', 'App maker'], env);
    expect(tenant.code).toBe(0);
    const { tenantId } = JSON.parse(tenant.stdout) as { tenantId: string };

    const created = await runCli(
      [
        'oauth-app',
        'create',
        '--tenant',
        tenantId,
        '--name',
        'Sync',
        '--redirect-uri',
        'https://sync.example/cb',
        '--redirect-uri',
        'http://127.0.0.1:8080/cb',
        '--scopes',
        'bookings:read,catalog:read',
      ],
      env,
    );
    expect(created.code).toBe(0);
    const app = JSON.parse(created.stdout) as { clientId: string; clientSecret: string };
    expect(Object.keys(app).sort()).toEqual(['clientId', 'clientSecret']);
    expect(app.clientSecret).toMatch(/^pcs_/);

    const pub = await runCli(
      [
        'oauth-app',
        'create',
        '--tenant',
        tenantId,
        '--name',
        'Mobile',
        '--redirect-uri',
        'com.example.portier:/cb',
        '--scopes',
        'bookings:read',
        '--public',
      ],
      env,
    );
    expect(pub.code).toBe(0);
    expect(Object.keys(JSON.parse(pub.stdout) as object)).toEqual(['clientId']);

    const rotated = await runCli(
      ['oauth-app', 'rotate-secret', '--tenant', tenantId, '--client-id', app.clientId],
      env,
    );
    expect(rotated.code).toBe(0);
    const newSecret = (JSON.parse(rotated.stdout) as { clientSecret: string }).clientSecret;
    expect(newSecret).not.toBe(app.clientSecret);

    const bad = await runCli(
      [
        'oauth-app',
        'create',
        '--tenant',
        tenantId,
        '--name',
        'Bad',
        '--redirect-uri',
        'http://evil.example/cb',
        '--scopes',
        'bookings:read,nope',
      ],
      env,
    );
    expect(bad.code).not.toBe(0);
    expect(bad.stderr).toMatch(/redirectUris/);
    expect(bad.stderr).toMatch(/unknown scope nope/);
    const missing = await runCli(
      ['oauth-app', 'create', '--tenant', tenantId, '--name', 'Bad', '--scopes', 'bookings:read'],
      env,
    );
    expect(missing.code).toBe(2);
    expect(missing.stderr).toMatch(/--redirect-uri is required/);

    const database = await openDatabase(env.DATABASE_URL ? { databaseUrl: env.DATABASE_URL } : { pgliteDir });
    try {
      const row = await database.db
        .selectFrom('oauth_apps')
        .selectAll()
        .where('client_id', '=', app.clientId)
        .executeTakeFirstOrThrow();
      expect(row.secret_hash).toBe(sha256(newSecret));
      expect(JSON.stringify(row)).not.toContain(newSecret);
      expect(row.redirect_uris).toEqual(['https://sync.example/cb', 'http://127.0.0.1:8080/cb']);
    } finally {
      await database.close();
    }
  }, 180_000);
});
