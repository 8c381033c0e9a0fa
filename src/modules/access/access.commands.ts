import { Type, type StaticDecode } from '@sinclair/typebox';
import { Value } from '@sinclair/typebox/value';
import {
  Flag,
  Id,
  Instant,
  Nullable,
  Whole,
  commandErrors,
  parseCommand,
  throwIfInvalid,
} from '../../kernel/commands.js';
import type { FieldError } from '../../kernel/errors.js';
import { MICROSECOND_INSTANT } from '../../kernel/db/keyset.js';
import { CONNECTION_PAGE, PAGE_SIZES, PageSize, UUID_PART, decodeCursor } from '../../kernel/paging.js';

// The access module's commands (docs/architecture.md, "Typed commands"): checked in the resolvers
// (and so the REST bridge) and the device route; the services trust them.

/** The longest a tenant may let its doors decide alone: one day. */
export const MAX_MAX_OFFLINE_SECONDS = 86_400;

export const SetDoorOfflinePolicy = Type.Object({
  maxOfflineSeconds: Whole(0, MAX_MAX_OFFLINE_SECONDS, {
    message: `must be a whole number of seconds from 0 to ${MAX_MAX_OFFLINE_SECONDS}`,
  }),
});
export type SetDoorOfflinePolicy = StaticDecode<typeof SetDoorOfflinePolicy>;
export const parseSetDoorOfflinePolicy = (input: unknown): SetDoorOfflinePolicy =>
  parseCommand(SetDoorOfflinePolicy, input);

/**
 * One decision a door made offline, as the device reports it (fastify has checked the JSON types
 * against devices.schemas.ts' OfflineAccessDecision); a denial names its reason, an admission none.
 */
const OfflineDecision = Type.Object({
  token_id: Nullable(Type.String({ minLength: 1, maxLength: 100, message: 'must be a token id or null' })),
  door_id: Id({ message: 'must be a door id (uuid)' }),
  decided_at: Instant({ message: 'must be an ISO 8601 timestamp' }),
  allowed: Flag(),
  reason: Nullable(Type.String({ minLength: 1, message: 'must be a denial reason' })),
});
export type ParsedOfflineDecision = StaticDecode<typeof OfflineDecision>;

export const ReportOfflineDecisions = Type.Object({
  entries: Type.Array(Type.Unknown(), { maxItems: 500, message: 'must be a list of at most 500 decisions' }),
});

function offlineDecisionErrors(entry: unknown, index: number): FieldError[] {
  const errors = commandErrors(OfflineDecision, entry).map((e) => ({ ...e, field: `entries.${index}.${e.field}` }));
  if (errors.length) return errors;
  const { allowed, reason } = entry as { allowed: boolean; reason?: string | null };
  if (allowed && reason) return [{ field: `entries.${index}.reason`, message: 'must be absent when allowed is true' }];
  if (!allowed && !reason) return [{ field: `entries.${index}.reason`, message: 'is required when allowed is false' }];
  return [];
}

/** An offline access-log upload's entries, decoded; every malformed entry is named (`entries.3.reason`). */
export function parseReportOfflineDecisions(input: unknown): ParsedOfflineDecision[] {
  const { entries } = parseCommand(ReportOfflineDecisions, input);
  throwIfInvalid(ReportOfflineDecisions, entries.flatMap(offlineDecisionErrors));
  return entries.map((entry) => Value.Decode(OfflineDecision, entry));
}

const filters = {
  deviceId: Nullable(Id({ message: 'must be a device id (uuid)' })),
  doorId: Nullable(Type.String({ message: 'must be a door id' })),
  bookingId: Nullable(Id({ message: 'must be a booking id (uuid)' })),
};

export const ListAccessLog = Type.Object({
  first: PageSize(PAGE_SIZES.accessLog),
  ...filters,
  before: Nullable(Instant({ message: 'must be an ISO 8601 timestamp' })),
});
export type ListAccessLog = Omit<StaticDecode<typeof ListAccessLog>, 'first'> & { first: number };

/** The access log's filters and page size (absent: the listing's default). */
export function parseListAccessLog(input: unknown): ListAccessLog {
  const command = parseCommand(ListAccessLog, input);
  return { ...command, first: command.first ?? PAGE_SIZES.accessLog.default };
}

export const ACCESS_LOG_CURSOR = 'access';

export const AccessLogConnection = Type.Object({
  first: PageSize(CONNECTION_PAGE),
  after: Nullable(Type.String({ message: 'is not a cursor this connection returned' })),
  ...filters,
});

/** A page of the access log: its size, the cursor it follows and that cursor's sort key, the filters. */
export interface AccessLogConnectionCommand {
  first: number;
  after: string | null;
  key: { at: string; id: string } | null;
  filters: { deviceId?: string | null; doorId?: string | null; bookingId?: string | null };
}

export function parseAccessLogConnection(input: unknown): AccessLogConnectionCommand {
  const { first, after, deviceId, doorId, bookingId } = parseCommand(AccessLogConnection, input);
  let key: AccessLogConnectionCommand['key'] = null;
  if (after != null) {
    const [at = '', id = ''] = decodeCursor(ACCESS_LOG_CURSOR, after, [MICROSECOND_INSTANT, UUID_PART]);
    key = { at, id };
  }
  return {
    first: first ?? CONNECTION_PAGE.default,
    after: after ?? null,
    key,
    filters: { deviceId, doorId, bookingId },
  };
}
