import type { Kysely } from 'kysely';
import type { DB } from '../../kernel/db/types.js';
import { groupLoader } from '../../kernel/db/batch.js';
import * as repo from './devices.repository.js';

export function createDeviceLoaders(db: Kysely<DB>) {
  return {
    doorsByDevice: groupLoader(
      (ids: readonly string[]) => repo.doorsOfDevices(db, ids),
      (r) => r.device_id,
    ),
  };
}
