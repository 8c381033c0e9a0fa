import { atPath, keyedItems, resolveKey, type ImportContext } from '../../kernel/import-helpers.js';
import { invalidField } from '../../kernel/errors.js';
import { auditImported } from '../audit/index.js';
import * as catalog from './catalog.service.js';
import { parseCreateAccommodation, parseCreateDoor, parseCreateObject, parseSpecialDate } from './catalog.commands.js';

const ACCOMMODATION_FIELDS = ['key', 'name', 'address', 'timeZone', 'objects'];
const OBJECT_FIELDS = ['key', 'name', 'pricePerHour', 'openingHours', 'specialDates', 'bookingRules'];
const DOOR_FIELDS = ['key', 'name', 'gpioPin', 'unlockDurationSeconds', 'behavior', 'objects'];

function rejectUnknownFields(item: Record<string, unknown>, allowed: string[], path: string): void {
  const unknown = Object.keys(item).filter((k) => !allowed.includes(k));
  if (unknown.length)
    throw invalidField(
      `${path}.${unknown[0]}`,
      `is not a known field; expected ${allowed.join(', ')}`,
      'import_invalid',
    );
}

export async function importAccommodations(ctx: ImportContext, value: unknown): Promise<void> {
  const objectKeys = new Set<string>();
  for (const { key, item, path } of keyedItems('accommodations', value)) {
    rejectUnknownFields(item, ACCOMMODATION_FIELDS, path);
    const command = await atPath(path, async () => parseCreateAccommodation(item));
    const accommodation = await atPath(path, () => catalog.createAccommodation(ctx.trx, ctx.tenantId, command));
    ctx.result.accommodations[key] = accommodation.id;
    await auditImported(ctx, 'accommodation.created', { type: 'accommodation', id: accommodation.id }, { ...command });
    for (const { key: objectKey, item: object, path: objectPath } of keyedItems(
      `${path}.objects`,
      item.objects ?? [],
    )) {
      rejectUnknownFields(object, OBJECT_FIELDS, objectPath);
      if (objectKeys.has(objectKey))
        throw invalidField(`${objectPath}.key`, `duplicate object key "${objectKey}"`, 'import_invalid');
      objectKeys.add(objectKey);
      const objectCommand = await atPath(objectPath, async () =>
        parseCreateObject({
          accommodationId: accommodation.id,
          name: object.name,
          pricePerHour: object.pricePerHour,
          openingHours: object.openingHours,
          bookingRules: object.bookingRules,
        }),
      );
      const row = await atPath(objectPath, () => catalog.createObject(ctx.trx, ctx.tenantId, objectCommand));
      ctx.result.objects[objectKey] = row.id;
      await auditImported(ctx, 'object.created', { type: 'object', id: row.id }, { ...objectCommand });
      const specialDates = object.specialDates ?? [];
      if (!Array.isArray(specialDates))
        throw invalidField(`${objectPath}.specialDates`, 'must be a list', 'import_invalid');
      for (const [index, date] of specialDates.entries()) {
        const datePath = `${objectPath}.specialDates[${index}]`;
        if (typeof date !== 'object' || date === null || Array.isArray(date))
          throw invalidField(datePath, 'must be an object {date, closed, reason}', 'import_invalid');
        const dateCommand = await atPath(datePath, async () => parseSpecialDate(date));
        await atPath(datePath, () => catalog.setSpecialDate(ctx.trx, ctx.tenantId, row.id, dateCommand));
        await auditImported(ctx, 'object.special_date_set', { type: 'object', id: row.id }, { ...dateCommand });
      }
    }
  }
}

export async function importDoors(ctx: ImportContext, value: unknown): Promise<void> {
  for (const { key, item, path } of keyedItems('doors', value)) {
    rejectUnknownFields(item, DOOR_FIELDS, path);
    const objects = item.objects ?? [];
    if (!Array.isArray(objects))
      throw invalidField(`${path}.objects`, 'must be a list of object keys', 'import_invalid');
    const objectIds = objects.map((k, i) => resolveKey(ctx.result.objects, 'object', k, `${path}.objects[${i}]`));
    const command = await atPath(path, async () =>
      parseCreateDoor({
        name: item.name,
        gpioPin: item.gpioPin,
        behavior: item.behavior,
        unlockDurationSeconds: item.unlockDurationSeconds,
        objectIds,
      }),
    );
    const door = await atPath(path, () => catalog.createDoor(ctx.trx, ctx.tenantId, command));
    ctx.result.doors[key] = door.id;
    await auditImported(ctx, 'door.created', { type: 'door', id: door.id }, { ...command });
  }
}
