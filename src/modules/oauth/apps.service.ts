import type { Executor } from '../../kernel/db/index.js';
import type { OAuthAppRow } from '../../kernel/db/types.js';
import { randomToken, sha256 } from '../../kernel/crypto.js';
import { invalidField, notFound } from '../../kernel/errors.js';
import { isUuid } from '../../kernel/validation.js';
import { findTenant } from '../tenants/index.js';
import type { CreateApp } from './apps.commands.js';
import * as repo from './apps.repository.js';
import { revokeGrantsOfApp } from './grants.service.js';

export const CLIENT_ID_PREFIX = 'app_';
export const CLIENT_SECRET_PREFIX = 'pcs_';

export interface CreatedApp {
  app: OAuthAppRow;
  /** The plain secret: returned once, stored only as a hash; null for a public app. */
  clientSecret: string | null;
}

function newSecret(): { plain: string; hash: string } {
  const plain = CLIENT_SECRET_PREFIX + randomToken(32);
  return { plain, hash: sha256(plain) };
}

/** Compares a presented client secret with the stored hash (the hash of a 256-bit random value). */
export function secretMatches(secretHash: string | null, presented: string): boolean {
  return (
    secretHash !== null && typeof presented === 'string' && presented.length > 0 && sha256(presented) === secretHash
  );
}

/** `input`: the tenant and the caller's parsed command (parseCreateApp). */
export async function createApp(db: Executor, input: { tenantId: string } & CreateApp): Promise<CreatedApp> {
  if (!isUuid(input.tenantId) || !(await findTenant(db, input.tenantId))) throw notFound('Tenant', input.tenantId);

  const isPublic = input.public === true;
  const secret = isPublic ? null : newSecret();
  const app = await repo.insertApp(db, {
    client_id: CLIENT_ID_PREFIX + randomToken(16),
    tenant_id: input.tenantId,
    name: input.name,
    redirect_uris: [...new Set(input.redirectUris)],
    scopes: [...new Set(input.scopes)],
    public: isPublic,
    secret_hash: secret?.hash ?? null,
  });
  return { app, clientSecret: secret?.plain ?? null };
}

export const listApps = repo.listApps;
export const findApp = repo.findApp;
export const authorizedTenantCounts = repo.authorizedTenantCounts;

async function ownApp(db: Executor, tenantId: string, clientId: string): Promise<OAuthAppRow> {
  const app = await repo.findApp(db, clientId);
  if (!app || app.tenant_id !== tenantId) throw notFound('OAuth app', clientId);
  return app;
}

/** A new secret; the old one stops working at once. */
export async function rotateSecret(db: Executor, tenantId: string, clientId: string, now: Date): Promise<CreatedApp> {
  const app = await ownApp(db, tenantId, clientId);
  if (app.public) throw invalidField('clientId', `${clientId} is a public app, which has no secret to rotate`);
  const secret = newSecret();
  const updated = await repo.setSecretHash(db, tenantId, clientId, secret.hash, now);
  if (!updated) throw notFound('OAuth app', clientId);
  return { app: updated, clientSecret: secret.plain };
}

/** Deletes the app and every grant and token any tenant gave it. Run inside a transaction. */
export async function deleteApp(db: Executor, tenantId: string, clientId: string): Promise<OAuthAppRow> {
  await ownApp(db, tenantId, clientId);
  await revokeGrantsOfApp(db, clientId);
  const deleted = await repo.deleteApp(db, tenantId, clientId);
  if (!deleted) throw notFound('OAuth app', clientId);
  return deleted;
}
