import type { Resolvers } from '../../../generated/graphql.js';
import { tenantOf, livemodeOf } from '../../kernel/auth/principal.js';
import { inTransaction } from '../../kernel/graphql-helpers.js';
import * as commands from './commands.service.js';
import { PAGE_SIZES, REST_CURSOR_PAGE, cursorPageOf, pageSizeOf } from '../../kernel/paging.js';
import { parseCreateDeviceCommand, parseRegisterDevice, parseSetDeviceDoors } from './devices.commands.js';
import * as devices from './devices.service.js';
import { deviceStatus, isOnline } from './devices.rules.js';
import { auditRequest } from '../audit/index.js';
import { announceDeviceCommands, announceDeviceRevoked } from './command-channel.js';

export const deviceResolvers: Resolvers = {
  Query: {
    devices: async (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const cursor = cursorPageOf(a, {}, REST_CURSOR_PAGE, devices.DEVICE_CURSOR.keyOf);
      if (!cursor) return devices.listDevices(ctx.db, tenantId);
      // A bare list has no field for the next cursor: REST sends it as the Link header.
      const { items, next } = await devices.devicePage(ctx.db, tenantId, cursor);
      ctx.nextCursor = next;
      return items;
    },
    device: (_, a, ctx) => devices.getDevice(ctx.db, tenantOf(ctx.principal, a.tenantId), a.id),
    deviceCommands: (_, a, ctx) =>
      commands.listCommands(
        ctx.db,
        tenantOf(ctx.principal, a.tenantId),
        a.deviceId,
        pageSizeOf(PAGE_SIZES.deviceCommands, a.first),
      ),
    deviceCommand: (_, a, ctx) =>
      commands.getCommand(ctx.db, tenantOf(ctx.principal, a.tenantId), a.deviceId, a.commandId),
  },
  Mutation: {
    registerDevice: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const command = parseRegisterDevice({ name: a.name, doorIds: a.doorIds ?? undefined });
      return inTransaction(ctx, async (trx) => {
        const registered = await devices.registerDevice(trx, ctx.deps, tenantId, command);
        await auditRequest(
          ctx,
          trx,
          tenantId,
          'device.registered',
          { type: 'device', id: registered.device.id },
          { name: registered.device.name, doorIds: a.doorIds },
        );
        return registered;
      });
    },
    setDeviceDoors: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const command = parseSetDeviceDoors({ doorIds: a.doorIds });
      return inTransaction(ctx, async (trx) => {
        const device = await devices.setDeviceDoors(trx, tenantId, a.id, command);
        await auditRequest(
          ctx,
          trx,
          tenantId,
          'device.doors_changed',
          { type: 'device', id: a.id },
          { doorIds: a.doorIds },
        );
        return device;
      });
    },
    revokeDevice: (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const revoked = inTransaction(ctx, async (trx) => {
        const wasRevoked = (await devices.getDevice(trx, tenantId, a.id)).revoked_at !== null;
        const device = await devices.revokeDevice(trx, ctx.deps, tenantId, a.id);
        if (!wasRevoked)
          await auditRequest(
            ctx,
            trx,
            tenantId,
            'device.revoked',
            { type: 'device', id: device.id },
            { name: device.name },
          );
        return device;
      });
      // Committed: the device's channel (on whichever process holds it) closes now.
      return revoked.then((device) => (announceDeviceRevoked(ctx.deps.live, tenantId, device.id), device));
    },
    createDeviceCommand: async (_, a, ctx) => {
      const tenantId = tenantOf(ctx.principal, a.tenantId);
      const command = parseCreateDeviceCommand(a);
      const queued = {
        command: await inTransaction(ctx, async (trx) => {
          const created = await commands.createCommand(trx, ctx.deps, tenantId, a.deviceId, command);
          await auditRequest(
            ctx,
            trx,
            tenantId,
            'device.command_created',
            { type: 'device', id: a.deviceId },
            { commandId: created.id, ...command },
          );
          return created;
        }),
      };
      // Committed: a device holding its command channel gets the command now, not at its next heartbeat.
      announceDeviceCommands(ctx.deps.live, tenantId, queued.command.device_id);
      return queued;
    },
  },
  Device: {
    livemode: (_, __, ctx) => livemodeOf(ctx.principal),
    status: (row, _, ctx) => deviceStatus(row, ctx.deps.now()),
    online: (row, _, ctx) => isOnline(row, ctx.deps.now()),
    lastHeartbeatAt: (row) => row.last_heartbeat_at,
    firmwareVersion: (row) => row.firmware_version,
    keyPrefix: (row) => row.key_prefix,
    doors: (row, _, ctx) => ctx.loaders.doorsByDevice.load(row.id),
    activationExpiresAt: (row) => row.activation_expires_at,
    activatedAt: (row) => row.activated_at,
    revokedAt: (row) => row.revoked_at,
    createdAt: (row) => row.created_at,
  },
  DeviceTelemetry: {
    cpuPercent: (t) => t.cpu_percent,
    memoryPercent: (t) => t.memory_percent,
    wifiSignalDbm: (t) => t.wifi_signal_dbm,
    doorStates: (t) => Object.entries(t.door_states ?? {}).map(([doorId, state]) => ({ doorId, state })),
  },
  DeviceCommand: {
    // A pending command past its expiry is expired, even before the device's next poll marks it.
    status: (row, _, ctx) => (row.status === 'pending' && row.expires_at <= ctx.deps.now() ? 'expired' : row.status),
  },
  DeviceCommandEntry: {
    command: (row) => row,
    deviceId: (row) => row.device_id,
    doorId: (row) => row.door_id,
    deliveredAt: (row) => row.delivered_at,
    completedAt: (row) => row.completed_at,
  },
};
