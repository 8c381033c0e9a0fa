import { sql } from 'kysely';
import type { Executor } from '../../kernel/db/index.js';
import { Sealer } from '../../kernel/crypto.js';
import { IDEMPOTENCY_LEASE_MS, IDEMPOTENCY_TTL_MS } from './idempotency.rules.js';

// The idempotency_keys table. Every decision is one statement, so any number of processes on one
// database agree on who runs a key.

export interface KeyRef {
  tenantId: string;
  credential: string;
  key: string;
  fingerprint: string;
}

export interface StoredAnswer {
  statusCode: number;
  headers: Record<string, string>;
  body: string;
}

export type Claim =
  | { kind: 'run' }
  | { kind: 'replay'; answer: StoredAnswer }
  | { kind: 'unreadable' }
  | { kind: 'reused' }
  | { kind: 'in_progress' };

/** HKDF info of the key that seals kept answers (crypto.ts, ServerSecret.sealerFor). */
export const ANSWER_SEAL_INFO = 'idempotency-answer-v1';

/**
 * A kept answer's body is sealed (AES-256-GCM) with the row it belongs to as associated data: answers
 * carry one-time secrets (a new API key, a client secret, an activation code, a generated webhook
 * secret), which must never sit readable in the database, its dumps or its files.
 */
const contextOf = (ref: Pick<KeyRef, 'tenantId' | 'credential' | 'key'>) =>
  `${ref.tenantId}\u0000${ref.credential}\u0000${ref.key}`;

/**
 * Takes the key for this request, or says why not. A key is free when it is new, when its row is
 * past its 24 hours, or when the same request's run lost its holder (lease expired).
 */
export async function claimKey(db: Executor, sealer: Sealer, ref: KeyRef, now: Date): Promise<Claim> {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const lockedUntil = new Date(now.getTime() + IDEMPOTENCY_LEASE_MS);
    const expiresAt = new Date(now.getTime() + IDEMPOTENCY_TTL_MS);
    const taken = await sql<{ claimed: boolean }>`
      INSERT INTO idempotency_keys AS k (tenant_id, credential, key, fingerprint, state, locked_until, created_at, expires_at)
      VALUES (${ref.tenantId}, ${ref.credential}, ${ref.key}, ${ref.fingerprint}, 'running', ${lockedUntil}, ${now}, ${expiresAt})
      ON CONFLICT (tenant_id, credential, key) DO UPDATE
        SET fingerprint = EXCLUDED.fingerprint, state = 'running', locked_until = EXCLUDED.locked_until,
            status_code = NULL, headers = NULL, body = NULL, created_at = EXCLUDED.created_at, expires_at = EXCLUDED.expires_at
        WHERE k.expires_at <= ${now} OR (k.state = 'running' AND k.locked_until <= ${now} AND k.fingerprint = EXCLUDED.fingerprint)
      RETURNING true AS claimed`.execute(db);
    if (taken.rows.length > 0) return { kind: 'run' };
    const row = await db
      .selectFrom('idempotency_keys')
      .select(['fingerprint', 'state', 'status_code', 'headers', 'body'])
      .where('tenant_id', '=', ref.tenantId)
      .where('credential', '=', ref.credential)
      .where('key', '=', ref.key)
      .executeTakeFirst();
    // Released (a 5xx) between the two statements: try to take it again.
    if (!row) continue;
    if (row.fingerprint !== ref.fingerprint) return { kind: 'reused' };
    if (row.state === 'running') return { kind: 'in_progress' };
    const body = row.body === null ? '' : sealer.open(row.body, contextOf(ref));
    // Sealed under another PORTIER_SECRET (or altered): the answer cannot be given again.
    if (body === null) return { kind: 'unreadable' };
    return { kind: 'replay', answer: { statusCode: row.status_code ?? 200, headers: row.headers ?? {}, body } };
  }
  return { kind: 'in_progress' };
}

/** The row of the run that holds the key (the same request, still running). */
function runningRowOf(ref: KeyRef) {
  return {
    tenant_id: ref.tenantId,
    credential: ref.credential,
    key: ref.key,
    fingerprint: ref.fingerprint,
    state: 'running' as const,
  };
}

/** Keeps the answer of the run that holds the key. */
export async function storeAnswer(db: Executor, sealer: Sealer, ref: KeyRef, answer: StoredAnswer): Promise<void> {
  await db
    .updateTable('idempotency_keys')
    .set({
      state: 'done',
      locked_until: null,
      status_code: answer.statusCode,
      headers: JSON.stringify(answer.headers),
      body: sealer.seal(answer.body, contextOf(ref)),
    })
    .where((eb) => eb.and(runningRowOf(ref)))
    .execute();
}

/** Frees the key (the run ended in a server error): a retry runs again. */
export async function releaseKey(db: Executor, ref: KeyRef): Promise<void> {
  await db
    .deleteFrom('idempotency_keys')
    .where((eb) => eb.and(runningRowOf(ref)))
    .execute();
}

/**
 * Deletes keys past their 24 hours; returns how many. A row another transaction holds (a request
 * still running under its key) is skipped, not waited for: the next prune takes it.
 */
export async function pruneKeys(db: Executor, now: Date): Promise<number> {
  const result = await sql`
    DELETE FROM idempotency_keys
     WHERE (tenant_id, credential, key) IN (
       SELECT tenant_id, credential, key FROM idempotency_keys WHERE expires_at <= ${now} FOR UPDATE SKIP LOCKED)`.execute(
    db,
  );
  return Number(result.numAffectedRows ?? 0);
}

/**
 * Seals the answers kept before answers were sealed (at most 24 hours' worth, once, at start-up);
 * returns how many. Idempotent: sealed rows are left alone.
 */
export async function sealPlainAnswers(db: Executor, sealer: Sealer): Promise<number> {
  const rows = await db
    .selectFrom('idempotency_keys')
    .select(['tenant_id', 'credential', 'key', 'body'])
    .where('state', '=', 'done')
    .where('body', 'is not', null)
    .where('body', 'not like', 'a1.%')
    .where('body', 'not like', 'a2.%')
    .execute();
  for (const row of rows) {
    if (row.body === null || Sealer.isSealed(row.body)) continue;
    const ref = { tenantId: row.tenant_id, credential: row.credential, key: row.key };
    await db
      .updateTable('idempotency_keys')
      .set({ body: sealer.seal(row.body, contextOf(ref)) })
      .where('tenant_id', '=', row.tenant_id)
      .where('credential', '=', row.credential)
      .where('key', '=', row.key)
      .where('body', '=', row.body)
      .execute();
  }
  return rows.length;
}
