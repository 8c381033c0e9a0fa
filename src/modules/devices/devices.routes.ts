import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../deps.js';
import type { DevicePrincipal } from '../../auth/principal.js';
import { DomainError, forbidden, unauthenticated } from '../../errors.js';
import { checkAccess } from '../access/access.service.js';
import { claimCommands, reportCommand } from './commands.service.js';
import { activateDevice, deviceConfig, heartbeat, isUnknownActivationCode } from './devices.service.js';
import { commandView } from './devices.rules.js';
import { FailureLimiter } from './failure-limiter.js';
import {
  AccessCheckBody,
  ActivateBody,
  CommandParams,
  CommandReportBody,
  DeviceParams,
  HeartbeatBody,
} from './devices.schemas.js';

export const DEVICES_BASE = '/api/devices';

/** Unknown activation codes per client IP: 5 in 15 minutes, then 429 until the oldest ages out. */
export const ACTIVATION_FAILURE_LIMIT = { maxFailures: 5, windowMs: 15 * 60_000 };
/** invalid_token denials per device: 10 a minute, then access checks are refused with 429. */
export const INVALID_TOKEN_LIMIT = { maxFailures: 10, windowMs: 60_000 };

type DeviceRequest = FastifyRequest<{ Params: { deviceId: string } }>;

/** The calling device; a key may act only for its own device id. */
function deviceOf(req: DeviceRequest): DevicePrincipal {
  const principal = req.principal;
  if (principal?.kind !== 'device') throw unauthenticated('A device key is required: send Authorization: Bearer svc_dk_…');
  return principal;
}

async function ownDeviceOnly(req: DeviceRequest): Promise<void> {
  if (req.params.deviceId !== deviceOf(req).deviceId) {
    throw forbidden(`This device key belongs to another device than ${req.params.deviceId}`, 'device_mismatch');
  }
}

function tooManyAttempts(code: string, message: string, seconds: number): DomainError {
  return new DomainError('RATE_LIMITED', code, `${message}; try again in ${seconds} s`, { headers: { 'Retry-After': String(seconds) } });
}

/** The device protocol under /api/devices (the controllers at the venue call these). */
export function registerDeviceRoutes(app: FastifyInstance, deps: AppDeps): void {
  const db = deps.database.db;
  const activationFailures = new FailureLimiter(ACTIVATION_FAILURE_LIMIT.maxFailures, ACTIVATION_FAILURE_LIMIT.windowMs);
  const invalidTokens = new FailureLimiter(INVALID_TOKEN_LIMIT.maxFailures, INVALID_TOKEN_LIMIT.windowMs);
  const device = { auth: 'device' as const };

  app.post<{ Body: ActivateBody }>(`${DEVICES_BASE}/activate`, { config: { auth: 'none' }, schema: { body: ActivateBody } }, async (req) => {
    const now = deps.now();
    const wait = activationFailures.retryAfterSeconds(req.ip, now);
    if (wait > 0) throw tooManyAttempts('too_many_activation_attempts', 'Too many invalid activation codes from this address', wait);
    try {
      return await activateDevice(db, deps, req.body);
    } catch (error) {
      if (isUnknownActivationCode(error)) activationFailures.recordFailure(req.ip, now);
      throw error;
    }
  });

  app.post<{ Params: { deviceId: string }; Body: HeartbeatBody }>(
    `${DEVICES_BASE}/:deviceId/heartbeat`,
    { config: device, onRequest: ownDeviceOnly, schema: { params: DeviceParams, body: HeartbeatBody } },
    async (req) => {
      const commands = await heartbeat(db, deps, deviceOf(req), req.body);
      return { status: 'ok', pending_commands: commands.map(commandView) };
    },
  );

  app.get<{ Params: { deviceId: string } }>(
    `${DEVICES_BASE}/:deviceId/commands`,
    { config: device, onRequest: ownDeviceOnly, schema: { params: DeviceParams } },
    async (req) => {
      const caller = deviceOf(req);
      const commands = await claimCommands(db, deps, caller.tenantId, caller.deviceId);
      return { commands: commands.map(commandView) };
    },
  );

  app.patch<{ Params: { deviceId: string; commandId: string }; Body: CommandReportBody }>(
    `${DEVICES_BASE}/:deviceId/commands/:commandId`,
    { config: device, onRequest: ownDeviceOnly, schema: { params: CommandParams, body: CommandReportBody } },
    async (req) => {
      const caller = deviceOf(req);
      const command = await reportCommand(db, deps, caller.tenantId, caller.deviceId, req.params.commandId, req.body);
      return { command: commandView(command) };
    },
  );

  app.get<{ Params: { deviceId: string } }>(
    `${DEVICES_BASE}/:deviceId/config`,
    { config: device, onRequest: ownDeviceOnly, schema: { params: DeviceParams } },
    async (req) => deviceConfig(db, deviceOf(req)),
  );

  app.post<{ Params: { deviceId: string }; Body: AccessCheckBody }>(
    `${DEVICES_BASE}/:deviceId/access-check`,
    { config: device, onRequest: ownDeviceOnly, schema: { params: DeviceParams, body: AccessCheckBody } },
    async (req) => checkAccess(db, deps, deviceOf(req), req.body, invalidTokens),
  );
}
