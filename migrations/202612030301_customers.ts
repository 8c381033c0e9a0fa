import { sql, type Kysely } from 'kysely';

// Frozen in time: Kysely<any>, no application imports.
// Customers (issue #43, docs/customers.md): one record per guest per tenant.
// - customers: name, email (unique per tenant, compared lower-cased and trimmed), phone (E.164),
//   notes, metadata (string→string, src/kernel/metadata.ts), marketing consent and when it was given,
//   erased_at once the customer was erased (GDPR: the row stays, its personal fields do not).
//   Prefix search reads three btree indexes (text_pattern_ops: LIKE 'x%' uses them in any collation).
// - bookings.customer_id: the customer a booking was matched to (tenant-scoped foreign key).
// - Backfill: one customer per tenant and normalised guest email of the existing bookings, named
//   and phoned as the latest of them (a phone only when it already reads as E.164), created when the
//   first of them was; every booking linked to its customer.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('customers')
    .addColumn('id', 'uuid', (c) => c.primaryKey().defaultTo(sql`gen_random_uuid()`))
    .addColumn('tenant_id', 'uuid', (c) => c.notNull().references('tenants.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull().check(sql`length(name) BETWEEN 1 AND 200`))
    .addColumn('email', 'text', (c) => c.check(sql`length(email) <= 254`))
    .addColumn('phone', 'text', (c) => c.check(sql`phone ~ '^\\+[1-9][0-9]{6,14}$'`))
    .addColumn('notes', 'text', (c) =>
      c
        .notNull()
        .defaultTo('')
        .check(sql`length(notes) <= 5000`),
    )
    .addColumn('metadata', 'jsonb', (c) => c.notNull().defaultTo(sql`'{}'::jsonb`))
    .addColumn('marketing_consent', 'boolean', (c) => c.notNull().defaultTo(false))
    .addColumn('marketing_consent_at', 'timestamptz')
    .addColumn('erased_at', 'timestamptz')
    .addColumn('created_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addColumn('updated_at', 'timestamptz', (c) => c.notNull().defaultTo(sql`now()`))
    .addUniqueConstraint('customers_tenant_id_id_key', ['tenant_id', 'id'])
    .execute();
  await sql`CREATE UNIQUE INDEX customers_tenant_email_key ON customers (tenant_id, lower(btrim(email))) WHERE email IS NOT NULL`.execute(
    db,
  );
  await sql`CREATE INDEX customers_tenant_name_prefix_idx ON customers (tenant_id, lower(name) text_pattern_ops)`.execute(
    db,
  );
  await sql`CREATE INDEX customers_tenant_email_prefix_idx ON customers (tenant_id, lower(email) text_pattern_ops) WHERE email IS NOT NULL`.execute(
    db,
  );
  await sql`CREATE INDEX customers_tenant_phone_idx ON customers (tenant_id, phone text_pattern_ops) WHERE phone IS NOT NULL`.execute(
    db,
  );
  await sql`CREATE INDEX customers_tenant_created_idx ON customers (tenant_id, created_at DESC, id DESC)`.execute(db);

  await sql`ALTER TABLE bookings ADD COLUMN customer_id uuid,
    ADD CONSTRAINT bookings_customer_fkey FOREIGN KEY (tenant_id, customer_id) REFERENCES customers (tenant_id, id)`.execute(
    db,
  );
  await sql`CREATE INDEX bookings_tenant_customer_idx ON bookings (tenant_id, customer_id, start_time DESC, id DESC)
    WHERE customer_id IS NOT NULL`.execute(db);

  // The backfill: the latest booking of each (tenant, normalised email) names the customer.
  await sql`
    INSERT INTO customers (tenant_id, name, email, phone, created_at, updated_at)
    SELECT DISTINCT ON (b.tenant_id, lower(btrim(b.guest_email)))
           b.tenant_id, left(b.guest_name, 200), btrim(b.guest_email),
           CASE WHEN regexp_replace(b.guest_phone, '[\\s().\\/-]', '', 'g') ~ '^\\+[1-9][0-9]{6,14}$'
                THEN regexp_replace(b.guest_phone, '[\\s().\\/-]', '', 'g') END,
           min(b.created_at) OVER (PARTITION BY b.tenant_id, lower(btrim(b.guest_email))),
           now()
      FROM bookings b
     ORDER BY b.tenant_id, lower(btrim(b.guest_email)), b.created_at DESC, b.id DESC`.execute(db);
  await sql`
    UPDATE bookings b SET customer_id = c.id
      FROM customers c
     WHERE c.tenant_id = b.tenant_id AND c.email IS NOT NULL AND lower(btrim(c.email)) = lower(btrim(b.guest_email))`.execute(
    db,
  );
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE bookings DROP COLUMN customer_id`.execute(db);
  await db.schema.dropTable('customers').execute();
}
