import type { Executor } from '../../kernel/db/index.js';
import { findPage } from './booking-page.repository.js';

/** Whether the tenant's booking page lists `origin` among the pages that may call it from a browser. */
export async function originAllowedFor(db: Executor, tenantId: string, origin: string): Promise<boolean> {
  const page = await findPage(db, tenantId);
  return page !== undefined && page.allowed_origins.includes(origin);
}
