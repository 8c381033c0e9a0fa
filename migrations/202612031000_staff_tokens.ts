import { sql, type Kysely } from 'kysely';

// Frozen in time: Kysely<any>, no application imports.
// Staff accounts (issue #43): a user's pending password reset and a tenant's pending invitations.
// Both keep only the SHA-256 of the mailed link's token; a row is deleted when its link is used.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('password_resets')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('tenant_id', 'uuid', (c) => c.notNull())
    .addColumn('user_id', 'uuid', (c) => c.notNull())
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    // One pending link per user: a new request replaces the old one.
    .addUniqueConstraint('password_resets_user_key', ['tenant_id', 'user_id'])
    .addForeignKeyConstraint('password_resets_user_fk', ['tenant_id', 'user_id'], 'users', ['tenant_id', 'id'], (fk) =>
      fk.onDelete('cascade'),
    )
    .execute();

  await db.schema
    .createTable('user_invitations')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('tenant_id', 'uuid', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('email', 'text', (c) => c.notNull())
    .addColumn('role', 'text', (c) => c.notNull().check(sql`role IN ('admin', 'staff')`))
    .addColumn('locale', 'text', (c) => c.notNull().defaultTo('en'))
    .addColumn('token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('invited_by', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .execute();
  // One pending invitation per email and tenant: inviting again replaces the link.
  await sql`CREATE UNIQUE INDEX user_invitations_email_key ON user_invitations (tenant_id, lower(email))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('user_invitations').execute();
  await db.schema.dropTable('password_resets').execute();
}
