import { sql, type Kysely } from 'kysely';

// Frozen in time: Kysely<any>, no application imports.
// What each webhook attempt sent and got back (docs/webhooks.md#delivery-log): the request's
// headers and body, and the receiver's headers and the first 4 KiB of its body. The signing
// secret is never among them (only the signature derived from it is sent). Attempts made before
// this migration keep nulls.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function up(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE webhook_attempts
    ADD COLUMN request_headers jsonb,
    ADD COLUMN request_body text,
    ADD COLUMN response_headers jsonb,
    ADD COLUMN response_body text,
    ADD COLUMN response_body_truncated boolean NOT NULL DEFAULT false`.execute(db);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function down(db: Kysely<any>): Promise<void> {
  await sql`ALTER TABLE webhook_attempts
    DROP COLUMN request_headers, DROP COLUMN request_body, DROP COLUMN response_headers,
    DROP COLUMN response_body, DROP COLUMN response_body_truncated`.execute(db);
}
