import { sql, type Kysely } from 'kysely';

// Frozen in time: Kysely<any>, no application imports.
// The guest's messages (issue #41, docs/notifications.md, docs/booking-page.md "Messages"):
// - bookings.reference: a short reference a guest can read out and staff can search
//   (`PRT-` and 5 characters of 23456789ABCDEFGHJKMNPQRSTVWXYZ: no 0/O, 1/I/L, U), unique per
//   tenant. A BEFORE INSERT trigger fills it on every insert that leaves it out (the services,
//   imports, hand-written SQL), drawing again when the tenant has the draw already; after eight
//   draws taken in a row it draws one character more. Existing bookings get theirs here, set-based
//   and collision-free: the n-th booking of a tenant (by creation) gets n scrambled by a
//   multiplication that is a bijection modulo 30^5.
// - bookings.guest_locale: the language the guest chose (en|de); NULL: the venue's default.
// - notifications.kind: 'payment_due' (the booking was received, pay here) and 'receipt'.
export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .alterTable('bookings')
    .addColumn('reference', 'text')
    .addColumn('guest_locale', 'text', (c) => c.check(sql`guest_locale IN ('en', 'de')`))
    .execute();
  await sql`CREATE FUNCTION portier_booking_reference() RETURNS trigger LANGUAGE plpgsql AS $$
    DECLARE
      alphabet constant text := '23456789ABCDEFGHJKMNPQRSTVWXYZ';
      candidate text;
      len int := 5;
      draws int := 0;
    BEGIN
      IF NEW.reference IS NOT NULL THEN RETURN NEW; END IF;
      LOOP
        candidate := 'PRT-';
        FOR i IN 1..len LOOP
          candidate := candidate || substr(alphabet, 1 + floor(random() * 30)::int, 1);
        END LOOP;
        EXIT WHEN NOT EXISTS (SELECT 1 FROM bookings WHERE tenant_id = NEW.tenant_id AND reference = candidate);
        draws := draws + 1;
        IF draws % 8 = 0 THEN len := len + 1; END IF;
      END LOOP;
      NEW.reference := candidate;
      RETURN NEW;
    END $$`.execute(db);
  await sql`CREATE TRIGGER bookings_reference BEFORE INSERT ON bookings
    FOR EACH ROW EXECUTE FUNCTION portier_booking_reference()`.execute(db);
  // 7777777 is prime to 30^5 (= 2^5 3^5 5^5): n -> n * 7777777 + 123457 mod 30^5 is a bijection.
  await sql`WITH numbered AS (
      SELECT id, ((row_number() OVER (PARTITION BY tenant_id ORDER BY created_at, id) - 1) * 7777777 + 123457) % 24300000 AS v
        FROM bookings WHERE reference IS NULL)
    UPDATE bookings b SET reference = 'PRT-' ||
      substr('23456789ABCDEFGHJKMNPQRSTVWXYZ', 1 + (n.v / 810000)::int % 30, 1) ||
      substr('23456789ABCDEFGHJKMNPQRSTVWXYZ', 1 + (n.v / 27000)::int % 30, 1) ||
      substr('23456789ABCDEFGHJKMNPQRSTVWXYZ', 1 + (n.v / 900)::int % 30, 1) ||
      substr('23456789ABCDEFGHJKMNPQRSTVWXYZ', 1 + (n.v / 30)::int % 30, 1) ||
      substr('23456789ABCDEFGHJKMNPQRSTVWXYZ', 1 + n.v::int % 30, 1)
    FROM numbered n WHERE b.id = n.id`.execute(db);
  await sql`ALTER TABLE bookings ALTER COLUMN reference SET NOT NULL`.execute(db);
  await db.schema
    .createIndex('bookings_tenant_reference_key')
    .on('bookings')
    .columns(['tenant_id', 'reference'])
    .unique()
    .execute();
  await sql`ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check`.execute(db);
  await sql`ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check
    CHECK (kind IN ('confirmed', 'rescheduled', 'cancelled', 'reminder', 'payment_due', 'receipt'))`.execute(db);
}

export async function down(db: Kysely<any>): Promise<void> {
  await sql`DELETE FROM notifications WHERE kind IN ('payment_due', 'receipt')`.execute(db);
  await sql`ALTER TABLE notifications DROP CONSTRAINT notifications_kind_check`.execute(db);
  await sql`ALTER TABLE notifications ADD CONSTRAINT notifications_kind_check
    CHECK (kind IN ('confirmed', 'rescheduled', 'cancelled', 'reminder'))`.execute(db);
  await sql`DROP TRIGGER bookings_reference ON bookings`.execute(db);
  await sql`DROP FUNCTION portier_booking_reference()`.execute(db);
  await db.schema.dropIndex('bookings_tenant_reference_key').execute();
  await db.schema.alterTable('bookings').dropColumn('guest_locale').dropColumn('reference').execute();
}
