// `npm run db:types`: regenerates src/kernel/db/schema.generated.ts from the migrations. It makes a scratch
// PostgreSQL database, migrates it to the latest version, runs kysely-codegen against it and drops
// it again. `npm run db:types -- --verify` fails when the committed file is not what the migrations
// make (CI runs that). The server is PostgreSQL at DB_TYPES_URL, else postgres://postgres@127.0.0.1:5432/postgres.
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { openDatabase } from '../src/kernel/db/database.js';
import { migrateToLatest } from '../src/kernel/db/migrate.js';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const OUT = 'src/kernel/db/schema.generated.ts';
const verify = process.argv.includes('--verify');

const base = process.env.DB_TYPES_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const name = `portier_db_types_${process.pid}`;
const admin = new pg.Client({ connectionString: base });
await admin.connect();
await admin.query(`CREATE DATABASE ${name}`);
const url = new URL(base);
url.pathname = `/${name}`;
let status = 0;
try {
  const database = await openDatabase({ databaseUrl: url.toString() });
  try {
    await migrateToLatest(database.db);
  } finally {
    await database.close();
  }
  const codegen = fileURLToPath(new URL('../node_modules/kysely-codegen/dist/cli/bin.js', import.meta.url));
  const args = [
    codegen,
    '--dialect',
    'postgres',
    '--url',
    url.toString(),
    '--out-file',
    OUT,
    '--exclude-pattern',
    'kysely_migration*',
    '--date-parser',
    'string',
    '--log-level',
    'error',
  ];
  try {
    execFileSync(process.execPath, verify ? [...args, '--verify'] : args, { cwd: ROOT, stdio: 'inherit' });
  } catch {
    process.stderr.write(`${OUT} is not what the migrations make: run 'npm run db:types' and commit the result\n`);
    status = 1;
  }
} finally {
  await admin.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
  await admin.end();
}
process.exit(status);
