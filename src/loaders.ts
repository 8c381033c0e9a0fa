import type { Kysely } from 'kysely';
import type { DB } from './db/types.js';
import { createCatalogLoaders } from './modules/catalog/index.js';
import { createWebhookLoaders } from './modules/webhooks/index.js';
import { createDeviceLoaders } from './modules/devices/index.js';
import { createOAuthLoaders } from './modules/oauth/index.js';

/** Per-request DataLoaders of every module, so field resolvers batch instead of N+1. */
export function createLoaders(db: Kysely<DB>) {
  return {
    ...createCatalogLoaders(db),
    ...createWebhookLoaders(db),
    ...createDeviceLoaders(db),
    ...createOAuthLoaders(db),
  };
}

export type Loaders = ReturnType<typeof createLoaders>;
