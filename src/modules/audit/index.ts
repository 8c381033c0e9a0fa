import { defineModule } from '../../kernel/module.js';
import { registerAuditExport } from './audit.export.js';
// The audit module's public face: recording and reading the tenant's audit log.
export * from './audit.service.js';
export { parseListAuditLog, type AuditLogPage } from './audit.commands.js';
export { auditRequest, auditImported } from './audit.request.js';
export { registerAuditExport, AUDIT_EXPORT_PATH, AUDIT_CSV_HEADER } from './audit.export.js';

/** The audit module (src/app/modules.ts lists it; docs/architecture.md, "Modules"). */
export const auditModule = defineModule({
  name: 'audit',
  dependsOn: [],
  routes: (fastify, deps) => {
    registerAuditExport(fastify, deps);
  },
});
