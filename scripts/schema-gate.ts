// The breaking-change gate (CI): compares the schema that schema/ builds with the last released
// one (schema/released.graphql) using graphql-inspector, and fails on a breaking change that the
// [Unreleased] section of CHANGELOG.md does not record. A change is recorded when that section
// names its schema coordinate in backticks (e.g. `Query.booking`, `Booking.totalPrice`,
// `BookingStatus.PENDING`). docs/schema.md describes the policy.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildSchema as buildSdl, type GraphQLSchema } from 'graphql';
import { CriticalityLevel, diff, type Change } from '@graphql-inspector/core';

export interface GateResult {
  ok: boolean;
  /** Breaking changes the changelog does not record: these fail the gate. */
  unrecorded: Change[];
  /** Breaking changes the changelog records. */
  recorded: Change[];
  /** Changes that are safe for most clients but worth a look (e.g. a new enum value). */
  dangerous: Change[];
  safe: Change[];
}

/** The text of the changelog's `## [Unreleased]` section (up to the next `## ` heading). */
export function unreleasedSection(changelog: string): string {
  const start = changelog.search(/^## \[Unreleased\]/m);
  if (start < 0) return '';
  const rest = changelog.slice(start).split('\n').slice(1);
  const end = rest.findIndex((line) => line.startsWith('## '));
  return (end < 0 ? rest : rest.slice(0, end)).join('\n');
}

export async function checkSchemaChange(
  released: GraphQLSchema,
  current: GraphQLSchema,
  changelog: string,
): Promise<GateResult> {
  const changes = await diff(released, current);
  const notes = unreleasedSection(changelog);
  const breaking = changes.filter((c) => c.criticality.level === CriticalityLevel.Breaking);
  const isRecorded = (c: Change) => c.path !== undefined && notes.includes(`\`${c.path}\``);
  const unrecorded = breaking.filter((c) => !isRecorded(c));
  return {
    ok: unrecorded.length === 0,
    unrecorded,
    recorded: breaking.filter(isRecorded),
    dangerous: changes.filter((c) => c.criticality.level === CriticalityLevel.Dangerous),
    safe: changes.filter((c) => c.criticality.level === CriticalityLevel.NonBreaking),
  };
}

async function main(): Promise<void> {
  const root = new URL('..', import.meta.url);
  const read = (file: string) => readFileSync(fileURLToPath(new URL(file, root)), 'utf8');
  const result = await checkSchemaChange(
    buildSdl(read('schema/released.graphql')),
    buildSdl(read('schema.graphql')),
    read('CHANGELOG.md'),
  );
  const show = (c: Change) => `  ${c.path ?? '(schema)'}: ${c.message}`;
  console.log(
    `schema changes since the last release: ${result.recorded.length + result.unrecorded.length} breaking, ${result.dangerous.length} dangerous, ${result.safe.length} safe`,
  );
  if (result.recorded.length)
    console.log(`breaking, recorded in CHANGELOG.md:\n${result.recorded.map(show).join('\n')}`);
  if (result.dangerous.length)
    console.log(
      `dangerous (clients that switch over enums or rely on defaults should look):\n${result.dangerous.map(show).join('\n')}`,
    );
  if (!result.ok) {
    console.error(
      `breaking schema changes that CHANGELOG.md does not record:\n${result.unrecorded.map(show).join('\n')}\n` +
        'Record each under "## [Unreleased]" in CHANGELOG.md, naming its coordinate in backticks (e.g. `Query.booking`), or make the change additive (deprecate instead of removing).',
    );
    process.exit(1);
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) await main();
