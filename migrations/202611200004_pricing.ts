import { sql, type Kysely } from 'kysely';

// Frozen in time: Kysely<any>, no application imports.
export async function up(db: Kysely<any>): Promise<void> {
  // object_ids is an array rather than a join table on purpose: with a cascading join table,
  // deleting the only object a rule is limited to would leave it with no objects, which means
  // "every object" — the opposite of what the venue set up.
  await db.schema
    .createTable('pricing_rules')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('tenant_id', 'uuid', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('type', 'text', (c) =>
      c.notNull().check(sql`type IN ('time_based','day_based','duration_based','early_bird')`),
    )
    .addColumn('active', 'boolean', (c) => c.notNull().defaultTo(true))
    .addColumn('object_ids', sql`uuid[]`, (c) => c.notNull().defaultTo(sql`'{}'::uuid[]`))
    .addColumn('percent', 'integer', (c) => c.notNull().check(sql`percent BETWEEN -100 AND 1000`))
    .addColumn('start_time', 'text')
    .addColumn('end_time', 'text')
    .addColumn('weekdays', sql`text[]`)
    .addColumn('min_duration_minutes', 'integer')
    .addColumn('min_days_in_advance', 'integer')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    // Creation order, also among rows created in one transaction (where now() is the same):
    // the order of a quote's adjustments.
    .addColumn('position', 'integer', (c) => c.notNull().generatedAlwaysAsIdentity())
    .addUniqueConstraint('pricing_rules_tenant_id_id_key', ['tenant_id', 'id'])
    .execute();
  await db.schema
    .createIndex('pricing_rules_tenant_idx')
    .on('pricing_rules')
    .columns(['tenant_id', 'position'])
    .execute();

  await db.schema
    .createTable('cancellation_policies')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('tenant_id', 'uuid', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('is_default', 'boolean', (c) => c.notNull().defaultTo(false))
    // [{hoursBeforeStart, refundPercent}], sorted by hoursBeforeStart descending.
    .addColumn('tiers', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('position', 'integer', (c) => c.notNull().generatedAlwaysAsIdentity())
    .addUniqueConstraint('cancellation_policies_tenant_id_id_key', ['tenant_id', 'id'])
    .execute();
  // At most one default policy per tenant.
  await sql`CREATE UNIQUE INDEX cancellation_policies_one_default ON cancellation_policies (tenant_id) WHERE is_default`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await db.schema.dropTable('cancellation_policies').ifExists().execute();
  await db.schema.dropTable('pricing_rules').ifExists().execute();
}
