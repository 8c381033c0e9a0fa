import type { Executor } from '../../kernel/db/index.js';
import type { TenantRow, UserRow } from '../../kernel/db/types.js';
import { DomainError, conflict, notFound } from '../../kernel/errors.js';
import { isUuid } from '../../kernel/validation.js';
import { hashPassword, verifyAgainstDummy, verifyPassword } from './password.js';
import type { Role } from './roles.js';
import type { ChangePassword, CreateUser } from './users.commands.js';
import * as repo from './users.repository.js';
import * as sessions from './sessions.repository.js';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/**
 * Creates a user with an initial password (the CLI, the demo and an admin's invitation);
 * `input`: the tenant and the caller's parsed command (parseCreateUser).
 */
export async function createUser(db: Executor, input: { tenantId: string } & CreateUser): Promise<UserRow> {
  const { email, password, role } = input;
  if (!isUuid(input.tenantId) || !(await tenantExists(db, input.tenantId))) throw notFound('Tenant', input.tenantId);
  if (await repo.emailTaken(db, email)) throw conflict('email_taken', `A user with the email ${email} already exists`);
  const passwordHash = await hashPassword(password);
  try {
    return await repo.insertUser(db, { tenant_id: input.tenantId, email, role, password_hash: passwordHash });
  } catch (error) {
    // Two creations of one email at once: the unique index decides.
    if (isUniqueViolation(error)) throw conflict('email_taken', `A user with the email ${email} already exists`);
    throw error;
  }
}

function isUniqueViolation(error: unknown): boolean {
  return typeof error === 'object' && error !== null && 'code' in error && error.code === '23505';
}

async function tenantExists(db: Executor, id: string): Promise<boolean> {
  return (await db.selectFrom('tenants').select('id').where('id', '=', id).executeTakeFirst()) !== undefined;
}

export const listUsers = repo.listUsers;

export async function getUser(db: Executor, tenantId: string, id: string): Promise<UserRow> {
  const user = isUuid(id) ? await repo.findUser(db, tenantId, id) : undefined;
  if (!user) throw notFound('User', id);
  return user;
}

const lastAdmin = () =>
  conflict('last_admin', "The tenant's last admin cannot be removed or demoted; make another user admin first");

/** Changes a user's role; the tenant keeps at least one admin. Returns the user and the role it had. */
export async function updateUserRole(
  db: Executor,
  tenantId: string,
  id: string,
  role: Role,
): Promise<{ user: UserRow; previous: Role }> {
  const admins = await repo.lockTenantAdmins(db, tenantId);
  const user = await getUser(db, tenantId, id);
  if (user.role === 'admin' && role !== 'admin' && admins.length <= 1) throw lastAdmin();
  const updated = await repo.setRole(db, tenantId, id, role);
  if (!updated) throw notFound('User', id);
  return { user: updated, previous: user.role };
}

/** Removes a user and their sessions; the tenant keeps at least one admin. */
export async function removeUser(db: Executor, tenantId: string, id: string): Promise<UserRow> {
  const admins = await repo.lockTenantAdmins(db, tenantId);
  const user = await getUser(db, tenantId, id);
  if (user.role === 'admin' && admins.length <= 1) throw lastAdmin();
  const removed = await repo.deleteUser(db, tenantId, id);
  if (!removed) throw notFound('User', id);
  return removed;
}

/**
 * A user's own password change: the current password must be right. Every other session of the
 * user is signed out (the one making the change stays signed in). Returns how many were ended.
 */
export async function changePassword(
  db: Executor,
  user: { id: string; tenantId: string },
  { currentPassword, newPassword }: ChangePassword,
  options: { now: Date; keepSessionId?: string },
): Promise<number> {
  const row = await getUser(db, user.tenantId, user.id);
  if (!(await verifyPassword(row.password_hash, currentPassword))) {
    throw new DomainError('BAD_USER_INPUT', 'wrong_password', 'currentPassword: is not your current password', {
      fieldErrors: [{ field: 'currentPassword', message: 'is not your current password' }],
    });
  }
  await repo.setPasswordHash(db, row.id, await hashPassword(newPassword), options.now);
  return sessions.revokeUserSessions(db, row.id, options.now, options.keepSessionId);
}

export interface VerifiedUser {
  user: UserRow;
  tenant: TenantRow;
}

/**
 * The user an email and password belong to, or why not. An unknown email costs the same Argon2
 * verification as a wrong password, so neither the answer nor its timing tells them apart.
 */
export async function verifyCredentials(
  db: Executor,
  email: string,
  password: string,
): Promise<{ ok: true; found: VerifiedUser } | { ok: false; user: UserRow | null }> {
  const user = EMAIL.test(email.trim()) ? await repo.findUserByEmail(db, email.trim()) : undefined;
  if (!user) {
    await verifyAgainstDummy(password);
    return { ok: false, user: null };
  }
  if (!(await verifyPassword(user.password_hash, password))) return { ok: false, user };
  return { ok: true, found: { user, tenant: await repo.findTenantOfUser(db, user) } };
}
