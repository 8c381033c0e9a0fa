// The access module's public face: what other modules and the HTTP/GraphQL layers may use.
export { AccessLogWriter, ACCESS_LOG_BATCH, ACCESS_LOG_FLUSH_MS } from './access-log-writer.js';
export { DENIAL_REASONS, type DenialReason } from './access.decision.js';
export { accessResolvers } from './access.resolvers.js';
export * from './access.service.js';
export type { AccessLogEntry } from './access.repository.js';
export { SMS_CODE_GUESS_TIERS } from './sms-guessing.js';
export { rescheduleCredentials, type RescheduledBooking } from './reschedule.js';
