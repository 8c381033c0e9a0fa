import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../kernel/deps.js';
import type { DevicePrincipal } from '../../kernel/auth/principal.js';
import { DomainError, forbidden, unauthenticated } from '../../kernel/errors.js';
import { checkAccess, parseReportOfflineDecisions, recordOfflineDecisions } from '../access/index.js';
import { claimCommands, reportCommand } from './commands.service.js';
import { activateDevice, deviceConfig, heartbeat, isUnknownActivationCode } from './devices.service.js';
import { commandView } from './devices.rules.js';
import { parseActivateDevice } from './devices.commands.js';
import { problemResponse } from '../../kernel/problem-schema.js';
import type { RouteDoc } from '../../kernel/route-doc.js';
import { openDeviceChannels } from './command-channel.js';
import {
  AccessCheckBody,
  AccessCheckResult,
  AccessLogReportBody,
  AccessLogReportResult,
  ActivateBody,
  ActivationResult,
  CommandList,
  CommandParams,
  CommandReportBody,
  CommandResult,
  DeviceConfigResult,
  DeviceParams,
  HeartbeatBody,
  HeartbeatResult,
} from './devices.schemas.js';

export const DEVICES_BASE = '/api/devices';

const CHANNEL_DOC: RouteDoc = {
  operationId: 'deviceCommandChannel',
  summary: 'Hold the command channel: commands arrive as Server-Sent Events as soon as they are queued',
  description:
    'One long-lived `text/event-stream` response per device (docs/devices.md, "The command channel"). Events: `ready` ({channel_id, device_id, ping_interval_seconds}) first, `command` (a device command, as in pending_commands) for each command the moment it is queued, and `closed` ({reason: replaced | revoked | shutdown}) before the server ends it. An idle channel gets a `: ping` comment every ping_interval_seconds. A second channel of the device (on any process) replaces the first. A command sent here is not handed out again by a heartbeat or poll; report its result with PATCH …/commands/{commandId} as ever. Heartbeats stay required (telemetry, presence, revoked tokens) and remain the fallback.',
  tags: ['devices'],
  params: {
    type: 'object',
    properties: { deviceId: { type: 'string', format: 'uuid', description: 'The device the key belongs to.' } },
    required: ['deviceId'],
  },
  responses: {
    200: {
      description: 'The event stream; it stays open until the device disconnects or the server closes it.',
      contentType: 'text/event-stream',
      schema: { type: 'string', description: 'Server-Sent Events: ready, command, closed; `: ping` comments.' },
      example:
        'event: ready\ndata: {"channel_id":"…","device_id":"…","ping_interval_seconds":25}\n\nevent: command\ndata: {"id":"…","type":"unlock","payload":{"gpio_pin":17,"duration_seconds":5},"status":"delivered","expires_at":"…","created_at":"…"}\n\n',
    },
  },
};

type DeviceRequest = FastifyRequest<{ Params: { deviceId: string } }>;

/** The calling device; a key may act only for its own device id. */
function deviceOf(req: DeviceRequest): DevicePrincipal {
  const principal = req.principal;
  if (principal?.kind !== 'device')
    throw unauthenticated('A device key is required: send Authorization: Bearer svc_dk_…');
  return principal;
}

async function ownDeviceOnly(req: DeviceRequest): Promise<void> {
  if (req.params.deviceId !== deviceOf(req).deviceId) {
    throw forbidden(`This device key belongs to another device than ${req.params.deviceId}`, 'device_mismatch');
  }
}

function tooManyAttempts(code: string, message: string, seconds: number): DomainError {
  return new DomainError('RATE_LIMITED', code, `${message}; try again in ${seconds} s`, {
    headers: { 'Retry-After': String(seconds) },
  });
}

/** The device protocol under /api/devices (the controllers at the venue call these). */
export function registerDeviceRoutes(app: FastifyInstance, deps: AppDeps): void {
  // The door's bulkhead: its own connections (docs/operations.md#the-doors-bulkhead).
  const db = deps.database.device.db;
  const { activationCodes } = deps.limits;
  const device = { auth: 'device' as const };
  const tags = ['devices'];
  const channels = openDeviceChannels(db, deps);
  // Open channels would hold the server's close until the doors hang up: they end first (the doors reconnect elsewhere).
  app.addHook('preClose', (done) => {
    channels.stop();
    done();
  });

  app.get<{ Params: { deviceId: string } }>(
    `${DEVICES_BASE}/:deviceId/channel`,
    { config: { ...device, openapi: CHANNEL_DOC }, onRequest: ownDeviceOnly },
    async (req, reply) => channels.open(req, reply, deviceOf(req)),
  );

  app.post<{ Body: ActivateBody }>(
    `${DEVICES_BASE}/activate`,
    {
      config: { auth: 'none' },
      schema: {
        operationId: 'activateDevice',
        summary: 'Activate a device with its one-time activation code',
        description:
          'Unknown code 400 activation_code_invalid; used, expired or revoked 409; after 5 unknown codes from one address in 15 minutes, 429.',
        tags,
        body: ActivateBody,
        response: {
          200: ActivationResult,
          409: problemResponse(
            'The code was already used (activation_code_used), has expired (activation_code_expired), or its device was revoked (device_revoked).',
          ),
        },
      },
    },
    async (req) => {
      const wait = await activationCodes.retryAfterSeconds(req.ip);
      if (wait > 0)
        throw tooManyAttempts(
          'too_many_activation_attempts',
          'Too many invalid activation codes from this address',
          wait,
        );
      try {
        const command = parseActivateDevice(req.body);
        return await db.transaction().execute((trx) => activateDevice(trx, deps, command, req.ip));
      } catch (error) {
        if (isUnknownActivationCode(error)) await activationCodes.recordFailure(req.ip);
        throw error;
      }
    },
  );

  app.post<{ Params: { deviceId: string }; Body: HeartbeatBody }>(
    `${DEVICES_BASE}/:deviceId/heartbeat`,
    {
      config: device,
      onRequest: ownDeviceOnly,
      schema: {
        operationId: 'deviceHeartbeat',
        summary: 'Send telemetry (every 15 s) and receive pending commands',
        tags,
        params: DeviceParams,
        body: HeartbeatBody,
        response: { 200: HeartbeatResult },
      },
    },
    async (req) => {
      const answer = await heartbeat(db, deps, deviceOf(req), req.body);
      return {
        status: 'ok',
        pending_commands: answer.commands.map(commandView),
        revoked_token_ids: answer.revokedTokenIds,
      };
    },
  );

  app.get<{ Params: { deviceId: string } }>(
    `${DEVICES_BASE}/:deviceId/commands`,
    {
      config: device,
      onRequest: ownDeviceOnly,
      schema: {
        operationId: 'pollDeviceCommands',
        summary: 'Poll pending commands (a backup to the heartbeat)',
        tags,
        params: DeviceParams,
        response: { 200: CommandList },
      },
    },
    async (req) => {
      const caller = deviceOf(req);
      const commands = await claimCommands(db, deps, caller.tenantId, caller.deviceId);
      return { commands: commands.map(commandView) };
    },
  );

  app.patch<{ Params: { deviceId: string; commandId: string }; Body: CommandReportBody }>(
    `${DEVICES_BASE}/:deviceId/commands/:commandId`,
    {
      config: device,
      onRequest: ownDeviceOnly,
      schema: {
        operationId: 'reportDeviceCommand',
        summary: 'Report the result of a command',
        description: 'Repeating the same report is harmless; another device’s or an unknown command is 404.',
        tags,
        params: CommandParams,
        body: CommandReportBody,
        response: {
          200: CommandResult,
          409: problemResponse(
            'A different report was already stored (command_already_reported) or the command expired (command_expired).',
          ),
        },
      },
    },
    async (req) => {
      const caller = deviceOf(req);
      const command = await db
        .transaction()
        .execute((trx) => reportCommand(trx, deps, caller.tenantId, caller.deviceId, req.params.commandId, req.body));
      return { command: commandView(command) };
    },
  );

  app.get<{ Params: { deviceId: string } }>(
    `${DEVICES_BASE}/:deviceId/config`,
    {
      config: device,
      onRequest: ownDeviceOnly,
      schema: {
        operationId: 'deviceConfig',
        summary:
          'The device’s configuration: doors, GPIO pins, behaviours, the keys to verify QR tokens offline and the offline policy',
        tags,
        params: DeviceParams,
        response: { 200: DeviceConfigResult },
      },
    },
    async (req) => deviceConfig(db, deps, deviceOf(req)),
  );

  app.post<{ Params: { deviceId: string }; Body: AccessCheckBody }>(
    `${DEVICES_BASE}/:deviceId/access-check`,
    {
      config: device,
      onRequest: ownDeviceOnly,
      schema: {
        operationId: 'deviceAccessCheck',
        summary: 'Check a scanned QR token or typed SMS code for a door',
        description:
          'A door the device does not drive is 403 door_not_assigned; valid credentials are always checked; past 10 wrong SMS codes at a door in a minute (30 in an hour), other SMS codes at that door get 429.',
        tags,
        params: DeviceParams,
        body: AccessCheckBody,
        response: { 200: AccessCheckResult },
      },
    },
    async (req) => checkAccess(db, deps, deviceOf(req), req.body),
  );

  app.post<{ Params: { deviceId: string }; Body: AccessLogReportBody }>(
    `${DEVICES_BASE}/:deviceId/access-log`,
    {
      config: device,
      onRequest: ownDeviceOnly,
      schema: {
        operationId: 'deviceAccessLogReport',
        summary: 'Report decisions the door made offline',
        description:
          'Each entry is stored once (key: device, token_id, door_id, decided_at); sending it again is harmless. An entry is believed only for a door the device drives, not in the future, and, when it opened the door, with a token id of this tenant, inside the token’s window ± the clock skew, at a door serving the token’s object; other entries are refused one by one in `rejected` and never stored. A malformed entry (a denial without reason, an admission with one) is a 400 naming it and nothing is stored.',
        tags,
        params: DeviceParams,
        body: AccessLogReportBody,
        response: { 202: AccessLogReportResult },
      },
    },
    async (req, reply) => {
      const entries = parseReportOfflineDecisions(req.body);
      const result = await db.transaction().execute((trx) => recordOfflineDecisions(trx, deps, deviceOf(req), entries));
      return reply.code(202).send(result);
    },
  );
}
