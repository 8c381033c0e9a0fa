import { openDatabase } from '../src/kernel/db/database.js';
import { migrateToLatest } from '../src/kernel/db/migrate.js';
import * as reports from '../src/modules/reports/index.js';
import { seedReports } from './scenarios/reports.js';

// `node --import tsx bench/reports-sql.ts <database-url> [rounds] [--seed]`: the report services timed in
// process against a bench database (bench/run.ts leaves BENCH_DATABASE in place on PostgreSQL):
// each report over the last year of the "Report Club" tenant (bench/scenarios/reports.ts), `rounds`
// times in turn, p50/p95/max per report. Without HTTP, so it shows what the SQL costs; the HTTP
// figures come from the bench's report scenarios. --seed: migrate the (empty) database and seed the
// report tenant first (no other tenants: the table then holds only its bookings). Prints one JSON document.

const url = process.argv[2];
if (!url) throw new Error('usage: bench/reports-sql.ts <database-url> [rounds]');
const rounds = Number(process.argv[3] ?? '20');
const database = await openDatabase({ databaseUrl: url });
const db = database.db;
if (process.argv.includes('--seed')) {
  await migrateToLatest(db);
  await seedReports(db);
}
const tenant = await db.selectFrom('tenants').select('id').where('name', '=', 'Report Club').executeTakeFirstOrThrow();
const bookings = await db
  .selectFrom('bookings')
  .select((eb) => eb.fn.countAll<string>().as('n'))
  .executeTakeFirstOrThrow();
const to = new Date().toISOString().slice(0, 10);
const from = new Date(Date.now() - 365 * 86_400_000).toISOString().slice(0, 10);
const day = new Date(Date.now() - 3 * 86_400_000).toISOString().slice(0, 10);
const now = new Date();
const cases: [string, () => Promise<unknown>][] = [
  ['occupancy (a year)', () => reports.occupancyReport(db, tenant.id, { from, to })],
  ['revenue by month (a year)', () => reports.revenueReport(db, tenant.id, { from, to, period: 'MONTH' })],
  ['revenue by day (a year)', () => reports.revenueReport(db, tenant.id, { from, to, period: 'DAY' })],
  ['payments by week (a year)', () => reports.paymentsReport(db, tenant.id, { from, to, period: 'WEEK' })],
  ['cash-up (a day)', () => reports.cashUpReport(db, tenant.id, { date: day })],
  ['no-shows (a year)', () => reports.noShowReport(db, tenant.id, { from, to }, now)],
];
const times: Record<string, number[]> = {};
for (let round = 0; round < rounds + 1; round += 1) {
  for (const [name, run] of cases) {
    const started = performance.now();
    await run();
    // Round 0 warms the plans and caches.
    if (round > 0) (times[name] ??= []).push(performance.now() - started);
  }
}
const at = (sorted: number[], q: number) =>
  sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
const result = Object.fromEntries(
  Object.entries(times).map(([name, list]) => {
    const sorted = [...list].sort((a, b) => a - b);
    return [
      name,
      { p50: +at(sorted, 0.5).toFixed(1), p95: +at(sorted, 0.95).toFixed(1), max: +(sorted.at(-1) ?? NaN).toFixed(1) },
    ];
  }),
);
console.log(JSON.stringify({ bookingsInTable: Number(bookings.n), rounds, ms: result }, null, 2));
await database.close();
