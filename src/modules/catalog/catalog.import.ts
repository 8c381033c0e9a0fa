import { atPath, keyedItems, resolveKey, type ImportContext } from '../../kernel/import-helpers.js';
import { invalidField } from '../../kernel/errors.js';
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
    const accommodation = await atPath(path, () =>
      catalog.createAccommodation(ctx.trx, ctx.tenantId, parseCreateAccommodation(item)),
    );
    ctx.result.accommodations[key] = accommodation.id;
    for (const { key: objectKey, item: object, path: objectPath } of keyedItems(
      `${path}.objects`,
      item.objects ?? [],
    )) {
      rejectUnknownFields(object, OBJECT_FIELDS, objectPath);
      if (objectKeys.has(objectKey))
        throw invalidField(`${objectPath}.key`, `duplicate object key "${objectKey}"`, 'import_invalid');
      objectKeys.add(objectKey);
      const row = await atPath(objectPath, () =>
        catalog.createObject(
          ctx.trx,
          ctx.tenantId,
          parseCreateObject({
            accommodationId: accommodation.id,
            name: object.name,
            pricePerHour: object.pricePerHour,
            openingHours: object.openingHours,
            bookingRules: object.bookingRules,
          }),
        ),
      );
      ctx.result.objects[objectKey] = row.id;
      const specialDates = object.specialDates ?? [];
      if (!Array.isArray(specialDates))
        throw invalidField(`${objectPath}.specialDates`, 'must be a list', 'import_invalid');
      for (const [index, date] of specialDates.entries()) {
        const datePath = `${objectPath}.specialDates[${index}]`;
        if (typeof date !== 'object' || date === null || Array.isArray(date))
          throw invalidField(datePath, 'must be an object {date, closed, reason}', 'import_invalid');
        await atPath(datePath, () => catalog.setSpecialDate(ctx.trx, ctx.tenantId, row.id, parseSpecialDate(date)));
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
    const door = await atPath(path, () =>
      catalog.createDoor(
        ctx.trx,
        ctx.tenantId,
        parseCreateDoor({
          name: item.name,
          gpioPin: item.gpioPin,
          behavior: item.behavior,
          unlockDurationSeconds: item.unlockDurationSeconds,
          objectIds,
        }),
      ),
    );
    ctx.result.doors[key] = door.id;
  }
}
