import { sql, type Kysely } from 'kysely';

// Frozen in time: Kysely<any>, no application imports.
// Webhook subscriptions, one delivery per (subscription, event), and the log of every attempt.
export async function up(db: Kysely<any>): Promise<void> {
  // Deliveries reference events by (tenant_id, id), like every other tenant-owned reference.
  await sql`ALTER TABLE events ADD CONSTRAINT events_tenant_id_id_key UNIQUE (tenant_id, id)`.execute(db);

  await db.schema
    .createTable('webhooks')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('tenant_id', 'uuid', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('events', sql`text[]`, (c) => c.notNull())
    // The signing secret sealed with PORTIER_SECRET; never stored or returned in the clear.
    .addColumn('secret_sealed', 'text', (c) => c.notNull())
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('deactivated_at', 'timestamptz')
    .addColumn('deactivated_reason', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('webhooks_tenant_id_id_key', ['tenant_id', 'id'])
    .execute();
  await db.schema
    .createIndex('webhooks_tenant_created_idx')
    .on('webhooks')
    .columns(['tenant_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('webhook_deliveries')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('tenant_id', 'uuid', (c) => c.notNull())
    .addColumn('webhook_id', 'uuid', (c) => c.notNull())
    .addColumn('event_id', 'uuid', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull().check(sql`status IN ('pending', 'succeeded', 'failed')`))
    .addColumn('attempt_count', 'integer', (c) => c.notNull().defaultTo(0))
    // Failed attempts since the delivery was (re)queued: the position in the retry schedule.
    .addColumn('retry_step', 'integer', (c) => c.notNull().defaultTo(0))
    // While pending: when the next attempt is due. While an attempt is in flight it holds the
    // lease's end, so a dispatcher that dies mid-attempt leaves the delivery to be retried.
    .addColumn('next_attempt_at', 'timestamptz')
    .addColumn('last_attempt_at', 'timestamptz')
    .addColumn('last_status_code', 'integer')
    .addColumn('last_error', 'text')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('completed_at', 'timestamptz')
    .addUniqueConstraint('webhook_deliveries_tenant_id_id_key', ['tenant_id', 'id'])
    .addUniqueConstraint('webhook_deliveries_once_key', ['tenant_id', 'webhook_id', 'event_id'])
    .addForeignKeyConstraint(
      'webhook_deliveries_webhook_fk',
      ['tenant_id', 'webhook_id'],
      'webhooks',
      ['tenant_id', 'id'],
      (fk) => fk.onDelete('cascade'),
    )
    .addForeignKeyConstraint(
      'webhook_deliveries_event_fk',
      ['tenant_id', 'event_id'],
      'events',
      ['tenant_id', 'id'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();
  await sql`CREATE INDEX webhook_deliveries_due_idx ON webhook_deliveries (next_attempt_at) WHERE status = 'pending'`.execute(
    db,
  );
  await db.schema
    .createIndex('webhook_deliveries_log_idx')
    .on('webhook_deliveries')
    .columns(['tenant_id', 'webhook_id', 'created_at'])
    .execute();

  await db.schema
    .createTable('webhook_attempts')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('tenant_id', 'uuid', (c) => c.notNull())
    .addColumn('delivery_id', 'uuid', (c) => c.notNull())
    .addColumn('attempted_at', 'timestamptz', (c) => c.notNull())
    .addColumn('status_code', 'integer')
    .addColumn('duration_ms', 'integer', (c) => c.notNull())
    .addColumn('error', 'text')
    .addForeignKeyConstraint(
      'webhook_attempts_delivery_fk',
      ['tenant_id', 'delivery_id'],
      'webhook_deliveries',
      ['tenant_id', 'id'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();
  await db.schema
    .createIndex('webhook_attempts_delivery_idx')
    .on('webhook_attempts')
    .columns(['tenant_id', 'delivery_id', 'attempted_at'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['webhook_attempts', 'webhook_deliveries', 'webhooks']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
  await sql`ALTER TABLE events DROP CONSTRAINT IF EXISTS events_tenant_id_id_key`.execute(db);
}
