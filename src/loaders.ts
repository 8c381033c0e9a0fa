import type { Kysely } from 'kysely';
import type { DB } from './db/types.js';
import { createCatalogLoaders } from './modules/catalog/catalog.loaders.js';
import { createWebhookLoaders } from './modules/webhooks/webhooks.loaders.js';
import { createDeviceLoaders } from './modules/devices/devices.loaders.js';
import { createOAuthLoaders } from './modules/oauth/oauth.loaders.js';

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
