import { readFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { readEnv } from './kernel/env.js';
import { startRuntime } from './app/runtime.js';
import type { AppDeps } from './kernel/deps.js';
import { DomainError } from './kernel/errors.js';
import {
  createApiKey,
  createPublishableKey,
  createTenant,
  parseCreateApiKey,
  parseCreatePublishableKey,
  parseCreateTenant,
} from './modules/tenants/index.js';
import { importCatalog } from './transport/import/import.js';
import { reconcilePayments } from './modules/payments/index.js';
import { CLI_ACTOR, createUser, isRole, parseCreateUser, recordAudit } from './modules/users/index.js';

// `npm run --silent cli -- <command>`: exactly one JSON document on stdout, logs on stderr,
// exit 0 on success and non-zero with a clear message otherwise.

const USAGE = `Usage:
  cli tenant create --name NAME
  cli apikey create --tenant ID --name NAME --scopes a,b [--rate-limit N]
  cli apikey create --tenant ID --publishable [--rate-limit N]   (replaces the tenant's publishable key)
  cli import --tenant ID FILE
  cli oauth-app create --tenant ID --name NAME --redirect-uri URI [--redirect-uri URI2 …] --scopes a,b [--public]
  cli oauth-app rotate-secret --tenant ID --client-id ID
  cli user create --tenant ID --email EMAIL --password PASSWORD [--role admin|staff]
  cli payments reconcile [--days N]`;

class UsageError extends Error {}

function required(values: Record<string, unknown>, name: string): string {
  const value = values[name];
  if (typeof value !== 'string' || value.trim() === '') throw new UsageError(`--${name} is required`);
  return value;
}

async function run(argv: string[], withDeps: () => Promise<AppDeps>): Promise<unknown> {
  const [command, sub] = argv;
  if (command === 'payments' && sub === 'reconcile') {
    const { values } = parseArgs({ args: argv.slice(2), options: { days: { type: 'string' } }, strict: true });
    const days = values.days === undefined ? 7 : Number(values.days);
    if (!Number.isInteger(days) || days < 1 || days > 90)
      throw new UsageError('--days must be a whole number from 1 to 90');
    const deps = await withDeps();
    if (!deps.paymentProvider) throw new UsageError('payments are not configured (STRIPE_SECRET_KEY)');
    return reconcilePayments(deps, days);
  }
  if (command === 'tenant' && sub === 'create') {
    const { values } = parseArgs({ args: argv.slice(2), options: { name: { type: 'string' } }, strict: true });
    const { name } = parseCreateTenant({ name: required(values, 'name') });
    const deps = await withDeps();
    const { tenant, apiKey } = await deps.database.db.transaction().execute((trx) => createTenant(trx, name));
    return { tenantId: tenant.id, apiKey };
  }
  if (command === 'apikey' && sub === 'create') {
    const { values } = parseArgs({
      args: argv.slice(2),
      options: {
        tenant: { type: 'string' },
        name: { type: 'string' },
        scopes: { type: 'string' },
        'rate-limit': { type: 'string' },
        publishable: { type: 'boolean' },
      },
      strict: true,
    });
    const tenantId = required(values, 'tenant');
    if (values.publishable) {
      if (values.name !== undefined || values.scopes !== undefined)
        throw new UsageError('--publishable takes no --name or --scopes (a publishable key holds booking_page only)');
      const limit = values['rate-limit'] === undefined ? undefined : Number(values['rate-limit']);
      const { rateLimitPerMinute } = parseCreatePublishableKey({ rateLimitPerMinute: limit });
      const deps = await withDeps();
      const created = await deps.database.db.transaction().execute(async (trx) => {
        const made = await createPublishableKey(trx, tenantId, rateLimitPerMinute ?? null);
        if (made.replaced)
          await recordAudit(trx, {
            tenantId,
            actor: CLI_ACTOR,
            action: 'api_key.revoked',
            target: { type: 'apiKey', id: made.replaced.id },
            details: {
              name: made.replaced.name,
              prefix: made.replaced.key_prefix,
              kind: 'publishable',
              replacedBy: made.key.id,
            },
            at: deps.now(),
          });
        await recordAudit(trx, {
          tenantId,
          actor: CLI_ACTOR,
          action: 'api_key.created',
          target: { type: 'apiKey', id: made.key.id },
          details: { name: made.key.name, prefix: made.key.key_prefix, scopes: made.key.scopes, kind: 'publishable' },
          at: deps.now(),
        });
        return made;
      });
      return { id: created.key.id, apiKey: created.apiKey, replaced: created.replaced?.id ?? null };
    }
    const name = required(values, 'name');
    const scopes = required(values, 'scopes')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    let rateLimitPerMinute: number | undefined;
    if (values['rate-limit'] !== undefined) {
      rateLimitPerMinute = Number(values['rate-limit']);
      if (!Number.isInteger(rateLimitPerMinute) || rateLimitPerMinute <= 0)
        throw new UsageError('--rate-limit must be a positive whole number');
    }
    const command = parseCreateApiKey({ name, scopes, rateLimitPerMinute });
    const deps = await withDeps();
    const { key, apiKey } = await deps.database.db.transaction().execute(async (trx) => {
      const created = await createApiKey(trx, { tenantId, ...command });
      const { key: row } = created;
      await recordAudit(trx, {
        tenantId,
        actor: CLI_ACTOR,
        action: 'api_key.created',
        target: { type: 'apiKey', id: row.id },
        details: { name: row.name, prefix: row.key_prefix, scopes: row.scopes },
        at: deps.now(),
      });
      return created;
    });
    return { id: key.id, apiKey };
  }
  if (command === 'oauth-app' && sub === 'create') {
    const { values } = parseArgs({
      args: argv.slice(2),
      options: {
        tenant: { type: 'string' },
        name: { type: 'string' },
        'redirect-uri': { type: 'string', multiple: true },
        scopes: { type: 'string' },
        public: { type: 'boolean' },
      },
      strict: true,
    });
    const tenantId = required(values, 'tenant');
    const name = required(values, 'name');
    const redirectUris = values['redirect-uri'] ?? [];
    if (redirectUris.length === 0) throw new UsageError('--redirect-uri is required (repeat it for more than one)');
    const scopes = required(values, 'scopes')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    const deps = await withDeps();
    // Loaded only here: the OAuth module pulls in oidc-provider, which the other commands do not need.
    const { createApp, parseCreateApp } = await import('./modules/oauth/index.js');
    const command = parseCreateApp({ name, redirectUris, scopes, public: values.public === true });
    const { app, clientSecret } = await createApp(deps.database.db, { tenantId, ...command });
    return app.public ? { clientId: app.client_id } : { clientId: app.client_id, clientSecret };
  }
  if (command === 'oauth-app' && sub === 'rotate-secret') {
    const { values } = parseArgs({
      args: argv.slice(2),
      options: { tenant: { type: 'string' }, 'client-id': { type: 'string' } },
      strict: true,
    });
    const tenantId = required(values, 'tenant');
    const clientId = required(values, 'client-id');
    const deps = await withDeps();
    const { rotateSecret } = await import('./modules/oauth/index.js');
    const { app, clientSecret } = await rotateSecret(deps.database.db, tenantId, clientId, deps.now());
    return { clientId: app.client_id, clientSecret };
  }
  if (command === 'user' && sub === 'create') {
    const { values } = parseArgs({
      args: argv.slice(2),
      options: {
        tenant: { type: 'string' },
        email: { type: 'string' },
        password: { type: 'string' },
        role: { type: 'string' },
      },
      strict: true,
    });
    const tenantId = required(values, 'tenant');
    const email = required(values, 'email');
    const password = required(values, 'password');
    const role = values.role ?? 'admin';
    if (!isRole(role)) throw new UsageError('--role must be admin or staff');
    const command = parseCreateUser({ email, password, role });
    const deps = await withDeps();
    const user = await deps.database.db.transaction().execute(async (trx) => {
      const created = await createUser(trx, { tenantId, ...command });
      await recordAudit(trx, {
        tenantId,
        actor: CLI_ACTOR,
        action: 'user.created',
        target: { type: 'user', id: created.id },
        details: { email: created.email, role },
        at: deps.now(),
      });
      return created;
    });
    return { userId: user.id };
  }
  if (command === 'import') {
    const { values, positionals } = parseArgs({
      args: argv.slice(1),
      options: { tenant: { type: 'string' } },
      allowPositionals: true,
      strict: true,
    });
    const tenantId = required(values, 'tenant');
    const [path] = positionals;
    if (path === undefined || positionals.length !== 1) throw new UsageError('import takes exactly one FILE');
    let file: unknown;
    try {
      file = JSON.parse(readFileSync(path, 'utf8'));
    } catch (error) {
      throw new UsageError(`cannot read ${positionals[0]} as JSON: ${(error as Error).message}`);
    }
    const deps = await withDeps();
    return importCatalog(deps, tenantId, file);
  }
  throw new UsageError(`unknown command "${argv.join(' ')}"`);
}

async function main(): Promise<number> {
  let deps: AppDeps | undefined;
  try {
    const result = await run(process.argv.slice(2), async () => {
      deps = await startRuntime(readEnv(), { logLevel: 'warn', sharedLimits: false });
      return deps;
    });
    process.stdout.write(JSON.stringify(result) + '\n');
    return 0;
  } catch (error) {
    if (
      error instanceof UsageError ||
      (error instanceof Error &&
        error.name === 'TypeError' &&
        'code' in error &&
        String(error.code).startsWith('ERR_PARSE_ARGS'))
    ) {
      process.stderr.write(`error: ${error.message}\n${USAGE}\n`);
      return 2;
    }
    if (error instanceof DomainError) {
      process.stderr.write(`error: ${error.message}\n`);
      return 1;
    }
    process.stderr.write(`error: ${(error as Error).message ?? error}\n`);
    return 1;
  } finally {
    await deps?.database.close();
  }
}

void main().then((code) => process.exit(code));
