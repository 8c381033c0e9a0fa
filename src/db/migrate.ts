import { readdir } from 'node:fs/promises';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { Migrator, NO_MIGRATIONS, type Kysely, type Migration, type MigrationProvider } from 'kysely';

const migrationsDir = fileURLToPath(new URL('../../migrations/', import.meta.url));

class FolderMigrationProvider implements MigrationProvider {
  async getMigrations(): Promise<Record<string, Migration>> {
    // .ts under the TypeScript loader (tests, tools), .js in the compiled build (dist/migrations).
    const files = (await readdir(migrationsDir)).filter((f) => /^\d{12}_.*\.(ts|js)$/.test(f) && !f.endsWith('.d.ts')).sort();
    const migrations: Record<string, Migration> = {};
    for (const file of files) {
      migrations[file.replace(/\.(ts|js)$/, '')] = (await import(pathToFileURL(migrationsDir + file).href)) as Migration;
    }
    return migrations;
  }
}

// Migrations are frozen in time and typed Kysely<any> (Kysely's own advice): they never see src/db/types.ts.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function migrateToLatest(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new FolderMigrationProvider() });
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
  const migrator = new Migrator({ db, provider: new FolderMigrationProvider() });
  const { error, results } = await migrator.migrateTo(NO_MIGRATIONS);
  if (error) {
    const failed = results?.find((r) => r.status === 'Error');
    throw new Error(`Reverting migration ${failed?.migrationName ?? ''} failed: ${(error as Error).message}`, { cause: error });
  }
  return (results ?? []).filter((r) => r.status === 'Success').map((r) => r.migrationName);
}

// eslint-disable-next-line @typescript-eslint/no-explicit-any
export async function pendingMigrations(db: Kysely<any>): Promise<string[]> {
  const migrator = new Migrator({ db, provider: new FolderMigrationProvider() });
  const all = await migrator.getMigrations();
  return all.filter((m) => !m.executedAt).map((m) => m.name);
}
