import { sql, type Kysely } from 'kysely';

// Frozen in time: Kysely<any>, no application imports.
// Door controllers (devices), the doors each one drives, commands sent to them, the access log of
// every access check, and the lookup hashes of each booking's credentials.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('devices')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('tenant_id', 'uuid', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    // The one-time activation code, as a SHA-256 hash; kept after use so a reuse is told apart from a typo.
    .addColumn('activation_code_hash', 'text', (c) => c.notNull().unique())
    .addColumn('activation_expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('activated_at', 'timestamptz')
    .addColumn('serial', 'text')
    .addColumn('firmware_version', 'text')
    .addColumn('key_hash', 'text', (c) => c.unique())
    .addColumn('key_prefix', 'text')
    .addColumn('revoked_at', 'timestamptz')
    .addColumn('last_heartbeat_at', 'timestamptz')
    .addColumn('telemetry', 'jsonb')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('devices_tenant_id_id_key', ['tenant_id', 'id'])
    .execute();
  await db.schema.createIndex('devices_tenant_idx').on('devices').columns(['tenant_id', 'created_at']).execute();

  await db.schema
    .createTable('device_doors')
    .addColumn('tenant_id', 'uuid', (c) => c.notNull())
    .addColumn('device_id', 'uuid', (c) => c.notNull())
    .addColumn('door_id', 'uuid', (c) => c.notNull())
    .addPrimaryKeyConstraint('device_doors_pk', ['tenant_id', 'device_id', 'door_id'])
    .addForeignKeyConstraint(
      'device_doors_device_fk',
      ['tenant_id', 'device_id'],
      'devices',
      ['tenant_id', 'id'],
      (fk) => fk.onDelete('cascade'),
    )
    .addForeignKeyConstraint('device_doors_door_fk', ['tenant_id', 'door_id'], 'doors', ['tenant_id', 'id'], (fk) =>
      fk.onDelete('cascade'),
    )
    .execute();
  await db.schema.createIndex('device_doors_door_idx').on('device_doors').columns(['tenant_id', 'door_id']).execute();

  await db.schema
    .createTable('device_commands')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('tenant_id', 'uuid', (c) => c.notNull())
    .addColumn('device_id', 'uuid', (c) => c.notNull())
    .addColumn('door_id', 'uuid')
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('payload', 'jsonb', (c) => c.notNull())
    .addColumn('status', 'text', (c) =>
      c.notNull().check(sql`status IN ('pending','delivered','executed','failed','expired')`),
    )
    .addColumn('result', 'jsonb')
    .addColumn('error', 'text')
    .addColumn('expires_at', 'timestamptz', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull())
    .addColumn('delivered_at', 'timestamptz')
    .addColumn('completed_at', 'timestamptz')
    .addUniqueConstraint('device_commands_tenant_id_id_key', ['tenant_id', 'id'])
    .addForeignKeyConstraint(
      'device_commands_device_fk',
      ['tenant_id', 'device_id'],
      'devices',
      ['tenant_id', 'id'],
      (fk) => fk.onDelete('cascade'),
    )
    .execute();
  await db.schema
    .createIndex('device_commands_device_idx')
    .on('device_commands')
    .columns(['tenant_id', 'device_id', 'created_at'])
    .execute();
  // Heartbeats look for a device's pending commands on every beat.
  await sql`CREATE INDEX device_commands_pending_idx ON device_commands (device_id, created_at) WHERE status = 'pending'`.execute(
    db,
  );

  // door_id is text and has no foreign key: the log keeps what a device asked for, even an
  // unknown door, and outlives deleted doors and bookings.
  await db.schema
    .createTable('access_log')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('tenant_id', 'uuid', (c) => c.notNull())
    .addColumn('device_id', 'uuid', (c) => c.notNull())
    .addColumn('door_id', 'text', (c) => c.notNull())
    .addColumn('booking_id', 'uuid')
    .addColumn('credential_type', 'text')
    .addColumn('allowed', 'boolean', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('checked_at', 'timestamptz', (c) => c.notNull())
    .addForeignKeyConstraint('access_log_device_fk', ['tenant_id', 'device_id'], 'devices', ['tenant_id', 'id'], (fk) =>
      fk.onDelete('cascade'),
    )
    .execute();
  await db.schema.createIndex('access_log_tenant_idx').on('access_log').columns(['tenant_id', 'checked_at']).execute();
  await db.schema
    .createIndex('access_log_device_idx')
    .on('access_log')
    .columns(['tenant_id', 'device_id', 'checked_at'])
    .execute();

  // Only lookup hashes live here: the QR token and SMS code are derived from PORTIER_SECRET, so a
  // copy of the database can neither show nor forge them. sms_nonce picks the code (a collision
  // within the tenant moves to the next nonce).
  await db.schema
    .createTable('booking_credentials')
    .addColumn('tenant_id', 'uuid', (c) => c.notNull())
    .addColumn('booking_id', 'uuid', (c) => c.notNull())
    .addColumn('qr_token_hash', 'text', (c) => c.notNull().unique())
    .addColumn('sms_code_hash', 'text', (c) => c.notNull())
    .addColumn('sms_nonce', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addPrimaryKeyConstraint('booking_credentials_pk', ['tenant_id', 'booking_id'])
    .addForeignKeyConstraint(
      'booking_credentials_booking_fk',
      ['tenant_id', 'booking_id'],
      'bookings',
      ['tenant_id', 'id'],
      (fk) => fk.onDelete('cascade'),
    )
    .addUniqueConstraint('booking_credentials_sms_key', ['tenant_id', 'sms_code_hash'])
    .execute();
}

export async function down(db: Kysely<any>): Promise<void> {
  for (const table of ['booking_credentials', 'access_log', 'device_commands', 'device_doors', 'devices']) {
    await db.schema.dropTable(table).ifExists().execute();
  }
}
