// The audit module's public face: recording and reading the tenant's audit log.
export * from './audit.service.js';
export { auditRequest } from './audit.request.js';
