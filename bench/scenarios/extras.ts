import type { Kysely } from 'kysely';
import type { DB } from '../../src/db/types.js';
import type { Dataset } from '../dataset.js';
import type { Scenario } from '../run.js';

// Scenarios of capabilities that need more seeded data (devices, credentials, pricing).

export interface Extras {
  summary: string;
}

export async function seedExtras(_db: Kysely<DB>, _dataset: Dataset, _secret: string): Promise<Extras> {
  return { summary: 'no devices' };
}

export function extraScenarios(_dataset: Dataset, _extras: Extras, _when: 'before' | 'after'): Scenario[] {
  return [];
}
