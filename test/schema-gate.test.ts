import { readFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { buildSchema } from 'graphql';
import { checkSchemaChange, unreleasedSection } from '../scripts/schema-gate.js';

const root = fileURLToPath(new URL('..', import.meta.url));
const printed = readFileSync(`${root}schema.graphql`, 'utf8');
const changelog = readFileSync(`${root}CHANGELOG.md`, 'utf8');

/** A copy of the current schema with one edit; the edit must apply. */
function edited(from: string, to: string): string {
  expect(printed).toContain(from);
  return printed.replace(from, to);
}

describe('the breaking-change gate (scripts/schema-gate.ts)', () => {
  it('fails on a breaking change the changelog does not record (Booking.totalPrice made nullable), naming it', async () => {
    const changed = edited('  totalPrice: Int!\n', '  totalPrice: Int\n');
    const result = await checkSchemaChange(buildSchema(printed), buildSchema(changed), changelog);
    expect(result.ok).toBe(false);
    expect(result.unrecorded.map((c) => c.path)).toContain('Booking.totalPrice');
  });

  it('fails on a removed field and on a new required argument', async () => {
    const removed = edited(
      '  """The tenant the calling API key belongs to."""\n  viewer: Tenant! @authenticated\n',
      '',
    );
    const required = edited('  bookings(\n    """How many', '  bookings(\n    venue: ID!\n    """How many');
    for (const changed of [removed, required]) {
      const result = await checkSchemaChange(buildSchema(printed), buildSchema(changed), changelog);
      expect(result.ok).toBe(false);
    }
  });

  it('passes the same breaking change once the [Unreleased] section records its coordinate', async () => {
    const changed = edited('  totalPrice: Int!\n', '  totalPrice: Int\n');
    const recorded = changelog.replace(
      '## [Unreleased]\n',
      '## [Unreleased]\n\n### Changed\n- **Breaking:** `Booking.totalPrice` may be null for a booking not yet priced.\n',
    );
    const result = await checkSchemaChange(buildSchema(printed), buildSchema(changed), recorded);
    expect(result.ok).toBe(true);
    expect(result.recorded.map((c) => c.path)).toEqual(['Booking.totalPrice']);
  });

  it('a record under an older release does not count', async () => {
    const changed = edited('  totalPrice: Int!\n', '  totalPrice: Int\n');
    const old = changelog.replace(
      '## [0.1.0] - 2026-11-24\n',
      '## [0.1.0] - 2026-11-24\n- `Booking.totalPrice` nullable\n',
    );
    expect(unreleasedSection(old)).not.toContain('Booking.totalPrice');
    expect((await checkSchemaChange(buildSchema(printed), buildSchema(changed), old)).ok).toBe(false);
  });

  it('passes a safe addition (a new nullable field and a new type) with nothing to record', async () => {
    const changed =
      edited('type Booking {\n', 'type Booking {\n  """A note for staff."""\n  staffNote: String\n') +
      '\n"""A new thing."""\ntype Gadget {\n  """Its id."""\n  id: ID!\n}\n';
    const result = await checkSchemaChange(buildSchema(printed), buildSchema(changed), changelog);
    expect(result.ok).toBe(true);
    expect(result.unrecorded).toEqual([]);
    expect(result.safe.map((c) => c.path)).toContain('Booking.staffNote');
  });

  it('the committed schema passes against schema/released.graphql (the CI step)', () => {
    const out = execFileSync(process.execPath, ['--import', 'tsx', 'scripts/schema-gate.ts'], {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    expect(out).toMatch(/schema changes since the last release: \d+ breaking/);
  });
});
