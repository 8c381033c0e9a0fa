import type { AppDeps } from '../../kernel/deps.js';
import { invalidField, notFound } from '../../kernel/errors.js';
import { isUuid } from '../../kernel/validation.js';
import type { ImportContext, ImportResult } from '../../kernel/import-helpers.js';
import { IMPORT_SECTIONS as SECTIONS, type ImportSection as Section, type SectionImporter } from '../../kernel/deps.js';
import { CLI_ACTOR, type AuditActor } from '../../modules/audit/index.js';

export type { ImportResult } from '../../kernel/import-helpers.js';

/**
 * Loads a catalog file for one tenant in one transaction: all or nothing. Sections load in a fixed
 * order so that later ones can refer to the keys of earlier ones.
 */
/** Which module imports each section (each module's importSections). */
function importersOf(deps: AppDeps): Partial<Record<Section, SectionImporter>> {
  return Object.assign({}, ...deps.modules.map((m) => m.importSections ?? {})) as Partial<
    Record<Section, SectionImporter>
  >;
}

export async function importCatalog(
  deps: AppDeps,
  tenantId: string,
  file: unknown,
  actor: AuditActor = CLI_ACTOR,
): Promise<ImportResult> {
  const importers = importersOf(deps);
  if (typeof file !== 'object' || file === null || Array.isArray(file)) {
    throw invalidField('file', 'must be a JSON object with catalog sections', 'import_invalid');
  }
  const [unknownSection] = Object.keys(file).filter((s) => !(SECTIONS as readonly string[]).includes(s));
  if (unknownSection !== undefined) {
    throw invalidField(
      unknownSection,
      `is not a catalog section; known sections are ${SECTIONS.join(', ')}`,
      'import_invalid',
    );
  }
  for (const section of SECTIONS) {
    if (section in file && !importers[section]) {
      throw invalidField(
        section,
        `importing ${section} is not supported by this version of Portier`,
        'import_unsupported',
      );
    }
  }
  if (!isUuid(tenantId)) throw notFound('Tenant', tenantId);
  return deps.database.db.transaction().execute(async (trx) => {
    const tenant = await trx.selectFrom('tenants').select('id').where('id', '=', tenantId).executeTakeFirst();
    if (!tenant) throw notFound('Tenant', tenantId);
    const ctx: ImportContext = {
      trx,
      deps,
      tenantId,
      actor,
      result: {
        accommodations: {},
        objects: {},
        doors: {},
        devices: {},
        bookings: {},
        pricingRules: {},
        cancellationPolicies: {},
      },
    };
    for (const section of SECTIONS) {
      const value = (file as Record<Section, unknown>)[section];
      const importer = importers[section];
      if (value !== undefined && importer) await importer(ctx, value);
    }
    return ctx.result;
  });
}
