import { defineModule } from '../../kernel/module.js';
import { accessResolvers } from './access.resolvers.js';
import { accessSubscriptionResolvers } from './access.subscriptions.js';
import type { AccessLogWriter } from './access-log-writer.js';
import type { DoorKeyCache } from './door-keys.js';
// The access module's public face: what other modules and the HTTP/GraphQL layers may use.
export {
  AccessLogWriter,
  ACCESS_LOG_BATCH,
  ACCESS_LOG_FLUSH_MS,
  type WrittenAccessLogEntry,
} from './access-log-writer.js';
export { accessDecisionMessage } from './access-decisions.js';
export { DENIAL_REASONS, type DenialReason } from './access.decision.js';
export { accessResolvers } from './access.resolvers.js';
export * from './access.service.js';
export type { AccessLogEntry } from './access.repository.js';
export { revokedTokenIdsQuery } from './door-credentials.repository.js';
export { SMS_CODE_GUESS_TIERS } from './sms-guessing.js';
export { DoorKeyCache } from './door-keys.js';
export {
  CLOCK_SKEW_SECONDS,
  DEFAULT_MAX_OFFLINE_SECONDS,
  doorVerificationConfig,
  getDoorOfflinePolicy,
  listDoorSigningKeys,
  recordOfflineDecisions,
  rescheduleCredentials,
  revokeCredentials,
  revocationWindow,
  rotateDoorSigningKey,
  setDoorOfflinePolicy,
  type DoorVerificationConfig,
  type RevocationWindow,
  type OfflineReportResult,
} from './door-credentials.service.js';
export { OFFLINE_REJECTIONS, type OfflineRejection } from './offline-entries.js';
export { parseReportOfflineDecisions } from './access.commands.js';

declare module '../../kernel/deps.js' {
  interface Collaborators {
    /** Buffers access-check log rows; the access check appends, log reads and shutdown flush. */
    accessLog: AccessLogWriter;
    /** Door signing keys by key id (public for verifying, unsealed private for signing), loaded once. */
    doorKeys: DoorKeyCache;
  }
}

/** The access module (src/app/modules.ts lists it; docs/architecture.md, "Modules"). */
export const accessModule = defineModule({
  name: 'access',
  dependsOn: ['audit'],
  typeDefs: ['access.graphql'],
  resolvers: { ...accessResolvers, ...accessSubscriptionResolvers },
});
