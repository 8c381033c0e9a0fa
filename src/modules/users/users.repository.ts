import { sql } from 'kysely';
import type { Executor } from '../../kernel/db/index.js';
import type { TenantRow, UserRow } from '../../kernel/db/types.js';
import type { Role } from './roles.js';

export async function insertUser(
  db: Executor,
  values: { tenant_id: string; email: string; role: Role; password_hash: string },
): Promise<UserRow> {
  return db.insertInto('users').values(values).returningAll().executeTakeFirstOrThrow();
}

export async function findUserByEmail(db: Executor, email: string): Promise<UserRow | undefined> {
  return db
    .selectFrom('users')
    .selectAll()
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst();
}

export async function emailTaken(db: Executor, email: string): Promise<boolean> {
  const row = await db
    .selectFrom('users')
    .select('id')
    .where(sql<string>`lower(email)`, '=', email.toLowerCase())
    .executeTakeFirst();
  return row !== undefined;
}

export async function findUser(db: Executor, tenantId: string, id: string): Promise<UserRow | undefined> {
  return db.selectFrom('users').selectAll().where('tenant_id', '=', tenantId).where('id', '=', id).executeTakeFirst();
}

/** Locks the user's row (role changes and removals re-check the last-admin rule under it). */
export async function lockTenantAdmins(db: Executor, tenantId: string): Promise<UserRow[]> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .where('role', '=', 'admin')
    .orderBy('id')
    .forUpdate()
    .execute();
}

export async function listUsers(db: Executor, tenantId: string): Promise<UserRow[]> {
  return db
    .selectFrom('users')
    .selectAll()
    .where('tenant_id', '=', tenantId)
    .orderBy('created_at')
    .orderBy('id')
    .execute();
}

export async function setRole(db: Executor, tenantId: string, id: string, role: Role): Promise<UserRow | undefined> {
  return db
    .updateTable('users')
    .set({ role })
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function setPasswordHash(db: Executor, id: string, passwordHash: string, now: Date): Promise<void> {
  await db
    .updateTable('users')
    .set({ password_hash: passwordHash, password_changed_at: now })
    .where('id', '=', id)
    .execute();
}

export async function deleteUser(db: Executor, tenantId: string, id: string): Promise<UserRow | undefined> {
  return db
    .deleteFrom('users')
    .where('tenant_id', '=', tenantId)
    .where('id', '=', id)
    .returningAll()
    .executeTakeFirst();
}

export async function findTenantOfUser(db: Executor, user: UserRow): Promise<TenantRow> {
  return db.selectFrom('tenants').selectAll().where('id', '=', user.tenant_id).executeTakeFirstOrThrow();
}
