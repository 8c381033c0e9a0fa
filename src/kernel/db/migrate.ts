import { readdir } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Migrator, NO_MIGRATIONS, sql, type Kysely, type Migration, type MigrationProvider } from 'kysely';

const migrationsDir = fileURLToPath(new URL('../../../migrations/', import.meta.url));

class FolderMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    // .ts under the TypeScript loader (tests, tools), .js in the compiled build (dist/migrations).
    const files = (await readdir(migrationsDir))
      .filter((f) => /^\d{12}_.*\.(ts|js)$/.test(f) && !f.endsWith('.d.ts'))
      .sort();
    const migrations: Record<string, Migration> = {};
    for (const file of files) {
      migrations[file.replace(/\.(ts|js)$/, '')] = (await import(
        pathToFileURL(migrationsDir + file).href
      )) as Migration;
    }
    return migrations;
  }
}

// Migrations are frozen in time and typed Kysely<any> (Kysely's own advice): they never see src/kernel/db/types.ts.
/**
 * Migrations the database has that this code does not know, when they all come after every one it
 * knows and those are all applied: the schema is ahead, as for an older process restarting during a
 * rolling deploy (docs/deployment.md). Such a process runs on the expanded schema; anything else
 * unknown is left to the migrator, which refuses it.
 */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
async function newerMigrationsOnly(db: Kysely<any>, migrator: Migrator): Promise<string[]> {
  const known = await migrator.getMigrations();
  let executed: string[];
  try {
    const rows = await sql<{ name: string }>`select name from kysely_migration`.execute(db);
    executed = rows.rows.map((r) => r.name);
  } catch {
    return []; // a new database: no migration table yet
  }
  const knownNames = new Set(known.map((m) => m.name));
  const unknown = executed.filter((name) => !knownNames.has(name));
  const latestKnown =
    known
      .map((m) => m.name)
      .sort()
      .at(-1) ?? '';
  if (unknown.length === 0 || !known.every((m) => m.executedAt) || !unknown.every((name) => name > latestKnown))
    return [];
  return unknown.sort();
}

export async function migrateToLatest(
  // eslint-disable-next-line @typescript-eslint/no-explicit-any -- migrations run on any schema, before and after each step
  db: Kysely<any>,
  log?: { warn(details: object, message: string): void },
): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new FolderMigrationProvider() });
  const ahead = await newerMigrationsOnly(db, migrator);
  if (ahead.length > 0) {
    log?.warn(
      { newer: ahead },
      'the database has migrations this version does not know (a newer version applied them); running on that schema',
    );
    return [];
  }
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`Migration ${failed?.migrationName ?? ''} failed: ${(error as Error).message ?? error}`);
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

/** Reverts every migration, newest first (the migration test runs up, down, up). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function migrateToEmpty(db: Kysely<any>): Promise<string[]> {
  return migrateBackTo(db, NO_MIGRATIONS);
}

/** Reverts the migrations after `name`, newest first (tests of what a migration finds when it runs). */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function migrateBackTo(db: Kysely<any>, name: string | typeof NO_MIGRATIONS): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new FolderMigrationProvider() });
  const { error, results } = await migrator.migrateTo(name);
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`Reverting migration ${failed?.migrationName ?? ''} failed: ${(error as Error).message}`, {
      cause: error,
    });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function pendingMigrations(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new FolderMigrationProvider() });
  const all = await migrator.getMigrations();
  return all.filter((m) => !m.executedAt).map((m) => m.name);
}
