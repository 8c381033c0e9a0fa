import { parseRegisterDevice } from './devices.commands.js';
import { atPath, keyedItems, resolveKey, type ImportContext } from '../../kernel/import-helpers.js';
import { invalidField } from '../../kernel/errors.js';
import { auditImported } from '../audit/index.js';
import { registerDevice } from './devices.service.js';

const DEVICE_FIELDS = ['key', 'name', 'doors'];

/** The catalog file's `devices` section: `{key, name, doors: [door keys]}` → deviceId and activation code. */
export async function importDevices(ctx: ImportContext, value: unknown): Promise<void> {
  for (const { key, item, path } of keyedItems('devices', value)) {
    const unknown = Object.keys(item).filter((k) => !DEVICE_FIELDS.includes(k));
    if (unknown.length)
      throw invalidField(
        `${path}.${unknown[0]}`,
        `is not a known field; expected ${DEVICE_FIELDS.join(', ')}`,
        'import_invalid',
      );
    const doors = item.doors ?? [];
    if (!Array.isArray(doors)) throw invalidField(`${path}.doors`, 'must be a list of door keys', 'import_invalid');
    const doorIds = doors.map((k, i) => resolveKey(ctx.result.doors, 'door', k, `${path}.doors[${i}]`));
    const { device, activationCode } = await atPath(path, () =>
      registerDevice(ctx.trx, ctx.deps, ctx.tenantId, parseRegisterDevice({ name: item.name, doorIds })),
    );
    ctx.result.devices[key] = { deviceId: device.id, activationCode };
    await auditImported(ctx, 'device.registered', { type: 'device', id: device.id }, { name: device.name, doorIds });
  }
}
