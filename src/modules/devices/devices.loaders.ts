import type { Kysely } from 'kysely';
import type { DB } from '../../db/types.js';
import { groupLoader } from '../../db/batch.js';
import * as repo from './devices.repository.js';

export function createDeviceLoaders(db: Kysely<DB>) {
  return {
    doorsByDevice: groupLoader(
      (ids: readonly string[]) => repo.doorsOfDevices(db, ids),
      (r) => r.device_id,
    ),
  };
}
