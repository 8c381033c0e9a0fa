import type { Kysely } from 'kysely';
import type { DB } from '../../kernel/db/types.js';
import { groupLoader, rowLoader } from '../../kernel/db/batch.js';
import * as repo from './catalog.repository.js';

export function createCatalogLoaders(db: Kysely<DB>) {
  return {
    accommodationById: rowLoader(
      (ids: readonly string[]) => repo.accommodationsByIds(db, ids),
      (r) => r.id,
    ),
    objectById: rowLoader(
      (ids: readonly string[]) => repo.objectsByIds(db, ids),
      (r) => r.id,
    ),
    objectsByAccommodation: groupLoader(
      (ids: readonly string[]) => repo.objectsByAccommodationIds(db, ids),
      (r) => r.accommodation_id,
    ),
    specialDatesByObject: groupLoader(
      (ids: readonly string[]) => repo.specialDatesByObjectIds(db, ids),
      (r) => r.object_id,
    ),
    objectIdsByDoor: groupLoader(
      (ids: readonly string[]) => repo.doorObjectsByDoorIds(db, ids),
      (r) => r.door_id,
    ),
  };
}
