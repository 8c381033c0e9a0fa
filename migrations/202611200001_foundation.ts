import { sql, type Kysely } from 'kysely';

// Frozen in time: Kysely<any>, no application imports.
export async function up(db: Kysely<any>): Promise<void> {
  await sql`CREATE EXTENSION IF NOT EXISTS btree_gist`.execute(db);

  await db.schema
    .createTable('tenants')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .execute();

  await db.schema
    .createTable('api_keys')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('tenant_id', 'uuid', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('key_prefix', 'text', (c) => c.notNull())
    .addColumn('scopes', sql`text[]`, (c) => c.notNull())
    .addColumn('rate_limit_per_minute', 'integer')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('revoked_at', 'timestamptz')
    .execute();
  await db.schema.createIndex('api_keys_tenant_idx').on('api_keys').columns(['tenant_id']).execute();

  await db.schema
    .createTable('accommodations')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('tenant_id', 'uuid', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull())
    .addColumn('time_zone', 'text', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('accommodations_tenant_id_id_key', ['tenant_id', 'id'])
    .execute();

  await db.schema
    .createTable('objects')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('tenant_id', 'uuid', (c) => c.notNull())
    .addColumn('accommodation_id', 'uuid', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('price_per_hour', 'integer', (c) => c.notNull().check(sql`price_per_hour >= 0`))
    .addColumn('opening_hours', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('min_duration_minutes', 'integer', (c) => c.notNull().defaultTo(60))
    .addColumn('max_duration_minutes', 'integer', (c) => c.notNull().defaultTo(240))
    .addColumn('slot_increment_minutes', 'integer', (c) => c.notNull().defaultTo(60))
    .addColumn('min_advance_minutes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('max_advance_days', 'integer', (c) => c.notNull().defaultTo(365))
    .addColumn('buffer_minutes', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('objects_tenant_id_id_key', ['tenant_id', 'id'])
    .addForeignKeyConstraint(
      'objects_accommodation_fk',
      ['tenant_id', 'accommodation_id'],
      'accommodations',
      ['tenant_id', 'id'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();
  await db.schema
    .createIndex('objects_accommodation_idx')
    .on('objects')
    .columns(['tenant_id', 'accommodation_id'])
    .execute();

  await db.schema
    .createTable('special_dates')
    .addColumn('tenant_id', 'uuid', (c) => c.notNull())
    .addColumn('object_id', 'uuid', (c) => c.notNull())
    .addColumn('date', 'date', (c) => c.notNull())
    .addColumn('closed', 'boolean', (c) => c.notNull())
    .addColumn('reason', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('open', 'text')
    .addColumn('close', 'text')
    .addPrimaryKeyConstraint('special_dates_pk', ['tenant_id', 'object_id', 'date'])
    .addForeignKeyConstraint(
      'special_dates_object_fk',
      ['tenant_id', 'object_id'],
      'objects',
      ['tenant_id', 'id'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();

  await db.schema
    .createTable('doors')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('tenant_id', 'uuid', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('gpio_pin', 'integer', (c) => c.notNull())
    .addColumn('behavior', 'text', (c) => c.notNull().defaultTo('unlock_per_scan'))
    .addColumn('unlock_duration_seconds', 'integer', (c) => c.notNull().defaultTo(5))
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('doors_tenant_id_id_key', ['tenant_id', 'id'])
    .execute();

  await db.schema
    .createTable('door_objects')
    .addColumn('tenant_id', 'uuid', (c) => c.notNull())
    .addColumn('door_id', 'uuid', (c) => c.notNull())
    .addColumn('object_id', 'uuid', (c) => c.notNull())
    .addPrimaryKeyConstraint('door_objects_pk', ['tenant_id', 'door_id', 'object_id'])
    .addForeignKeyConstraint('door_objects_door_fk', ['tenant_id', 'door_id'], 'doors', ['tenant_id', 'id'], (fk) =>
      fk.onDelete('cascade'),
    )
    .addForeignKeyConstraint(
      'door_objects_object_fk',
      ['tenant_id', 'object_id'],
      'objects',
      ['tenant_id', 'id'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();

  await db.schema
    .createTable('bookings')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('tenant_id', 'uuid', (c) => c.notNull())
    .addColumn('object_id', 'uuid', (c) => c.notNull())
    .addColumn('guest_name', 'text', (c) => c.notNull())
    .addColumn('guest_email', 'text', (c) => c.notNull())
    .addColumn('guest_phone', 'text')
    .addColumn('start_time', 'timestamptz', (c) => c.notNull())
    .addColumn('end_time', 'timestamptz', (c) => c.notNull())
    // end_time + the object's buffer at booking time; timestamptz + interval is not immutable,
    // so the blocked range end is stored rather than computed in the constraint.
    .addColumn('blocked_until', 'timestamptz', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status IN ('PENDING','CONFIRMED','CANCELLED','COMPLETED')`),
    )
    .addColumn('total_price', 'integer', (c) => c.notNull())
    .addColumn('currency', 'text', (c) => c.notNull().defaultTo('EUR'))
    .addColumn('refund_amount', 'integer')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('bookings_tenant_id_id_key', ['tenant_id', 'id'])
    .addForeignKeyConstraint('bookings_object_fk', ['tenant_id', 'object_id'], 'objects', ['tenant_id', 'id'], (fk) =>
      fk.onDelete('cascade'),
    )
    .addCheckConstraint('bookings_time_order', sql`start_time < end_time AND end_time <= blocked_until`)
    .execute();
  await sql`ALTER TABLE bookings ADD CONSTRAINT bookings_no_overlap EXCLUDE USING gist
    (tenant_id WITH =, object_id WITH =, tstzrange(start_time, blocked_until) WITH &&)
    WHERE (status IN ('PENDING', 'CONFIRMED'))`.execute(db);
  await db.schema
    .createIndex('bookings_tenant_start_idx')
    .on('bookings')
    .columns(['tenant_id', 'start_time', 'id'])
    .execute();
  await db.schema
    .createIndex('bookings_object_start_idx')
    .on('bookings')
    .columns(['tenant_id', 'object_id', 'start_time'])
    .execute();

  // The transactional outbox: every state change that emits an event writes it here in the same
  // transaction; the webhook dispatcher reads from it.
  await db.schema
    .createTable('events')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('tenant_id', 'uuid', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('data', 'jsonb', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('fanned_out_at', 'timestamptz')
    .execute();
  await sql`CREATE INDEX events_pending_idx ON events (created_at) WHERE fanned_out_at IS NULL`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of [
    'events',
    'bookings',
    'door_objects',
    'doors',
    'special_dates',
    'objects',
    'accommodations',
    'api_keys',
    'tenants',
  ]) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
