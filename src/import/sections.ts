import type { ImportContext } from './helpers.js';
import { importAccommodations, importDoors } from '../modules/catalog/index.js';
import { importCancellationPolicies, importPricingRules } from '../modules/pricing/index.js';
import { importBookings } from '../modules/bookings/index.js';
import { importDevices } from '../modules/devices/index.js';

/** Catalog file sections, in the order they load (later sections refer to earlier keys). */
export const SECTIONS = ['accommodations', 'doors', 'devices', 'pricingRules', 'cancellationPolicies', 'bookings'] as const;
export type Section = (typeof SECTIONS)[number];

export type SectionImporter = (ctx: ImportContext, value: unknown) => Promise<void>;

/** Each capability registers the section it owns. */
export const importers: Partial<Record<Section, SectionImporter>> = {
  accommodations: importAccommodations,
  doors: importDoors,
  pricingRules: importPricingRules,
  cancellationPolicies: importCancellationPolicies,
  bookings: importBookings,
  devices: importDevices,
};
