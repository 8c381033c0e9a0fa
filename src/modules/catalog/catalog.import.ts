import { atPath, keyedItems, resolveKey, type ImportContext } from '../../import/helpers.js';
import { Validator, invalidField } from '../../errors.js';
import * as catalog from './catalog.service.js';
import type { DayHours } from '../../db/types.js';
import type { BookingRules } from './catalog.rules.js';

const ACCOMMODATION_FIELDS = ['key', 'name', 'address', 'timeZone', 'objects'];
const OBJECT_FIELDS = ['key', 'name', 'pricePerHour', 'openingHours', 'specialDates', 'bookingRules'];
const DOOR_FIELDS = ['key', 'name', 'gpioPin', 'unlockDurationSeconds', 'behavior', 'objects'];

function rejectUnknownFields(item: Record<string, unknown>, allowed: string[], path: string): void {
  const unknown = Object.keys(item).filter((k) => !allowed.includes(k));
  if (unknown.length) throw invalidField(`${path}.${unknown[0]}`, `is not a known field; expected ${allowed.join(', ')}`, 'import_invalid');
}

export async function importAccommodations(ctx: ImportContext, value: unknown): Promise<void> {
  const objectKeys = new Set<string>();
  for (const { key, item, path } of keyedItems('accommodations', value)) {
    rejectUnknownFields(item, ACCOMMODATION_FIELDS, path);
    const accommodation = await atPath(path, () => catalog.createAccommodation(ctx.trx, ctx.tenantId, item as { name?: string; address?: string; timeZone?: string }));
    ctx.result.accommodations[key] = accommodation.id;
    for (const { key: objectKey, item: object, path: objectPath } of keyedItems(`${path}.objects`, item.objects ?? [])) {
      rejectUnknownFields(object, OBJECT_FIELDS, objectPath);
      if (objectKeys.has(objectKey)) throw invalidField(`${objectPath}.key`, `duplicate object key "${objectKey}"`, 'import_invalid');
      objectKeys.add(objectKey);
      const row = await atPath(objectPath, () =>
        catalog.createObject(ctx.trx, ctx.tenantId, {
          accommodationId: accommodation.id,
          name: object.name as string,
          pricePerHour: object.pricePerHour as number,
          openingHours: object.openingHours as Record<string, DayHours>,
          bookingRules: object.bookingRules as Partial<BookingRules>,
        }),
      );
      ctx.result.objects[objectKey] = row.id;
      const specialDates = object.specialDates ?? [];
      if (!Array.isArray(specialDates)) throw invalidField(`${objectPath}.specialDates`, 'must be a list', 'import_invalid');
      for (const [index, date] of specialDates.entries()) {
        const datePath = `${objectPath}.specialDates[${index}]`;
        if (typeof date !== 'object' || date === null || Array.isArray(date)) throw invalidField(datePath, 'must be an object {date, closed, reason}', 'import_invalid');
        const v = new Validator();
        catalog.checkSpecialDate(v, date as catalog.SpecialDateInput);
        await atPath(datePath, async () => {
          v.throwIfAny();
          await catalog.setSpecialDate(ctx.trx, ctx.tenantId, row.id, date as catalog.SpecialDateInput);
        });
      }
    }
  }
}

export async function importDoors(ctx: ImportContext, value: unknown): Promise<void> {
  for (const { key, item, path } of keyedItems('doors', value)) {
    rejectUnknownFields(item, DOOR_FIELDS, path);
    const objects = item.objects ?? [];
    if (!Array.isArray(objects)) throw invalidField(`${path}.objects`, 'must be a list of object keys', 'import_invalid');
    const objectIds = objects.map((k, i) => resolveKey(ctx.result.objects, 'object', k, `${path}.objects[${i}]`));
    const door = await atPath(path, () =>
      catalog.createDoor(ctx.trx, ctx.tenantId, {
        name: item.name as string,
        gpioPin: item.gpioPin as number,
        behavior: item.behavior as string | undefined,
        unlockDurationSeconds: item.unlockDurationSeconds as number | undefined,
        objectIds,
      }),
    );
    ctx.result.doors[key] = door.id;
  }
}
