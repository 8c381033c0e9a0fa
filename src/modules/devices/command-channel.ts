import { randomUUID } from 'node:crypto';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { Kysely } from 'kysely';
import type { DB } from '../../kernel/db/types.js';
import type { AppDeps } from '../../kernel/deps.js';
import type { DevicePrincipal } from '../../kernel/auth/principal.js';
import { DEVICE_NOTICE, type Live } from '../../kernel/live/index.js';
import { claimCommands } from './commands.service.js';
import { releaseCommands } from './commands.repository.js';
import { findDevice } from './devices.repository.js';
import { commandView } from './devices.rules.js';

// The command channel (docs/devices.md, "The command channel"): one long-lived Server-Sent Events
// response per device on which its commands arrive as soon as they are queued, from whichever
// process queued them. The database stays the one source of truth: a channel is only woken by a
// device notice on the live transport (NOTIFY or Redis pub/sub) and then claims the device's
// pending commands with the same statement the heartbeat uses, so each command is handed out once,
// by the channel or by a heartbeat/poll, whichever claims it first.

/** A channel's device re-reads its device row this often: a revocation whose notice was lost ends it then. */
export const CHANNEL_RECHECK_SECONDS = 300;

/** Why the server ended a channel (the `closed` event's reason). */
export type ChannelCloseReason = 'replaced' | 'revoked' | 'shutdown';

/** What a device notice's data says (LiveMessage.data of topic DEVICE_NOTICE). */
interface DeviceNotice {
  kind: 'commands' | 'revoked' | 'opened';
  deviceId: string;
  /** opened: the new channel and when it opened (ms); the newer one wins on every process. */
  channelId?: string;
  openedAt?: number;
}

function noticeOf(data: Record<string, unknown>): DeviceNotice | undefined {
  const { kind, deviceId, channelId, openedAt } = data;
  if ((kind !== 'commands' && kind !== 'revoked' && kind !== 'opened') || typeof deviceId !== 'string')
    return undefined;
  return {
    kind,
    deviceId,
    channelId: typeof channelId === 'string' ? channelId : undefined,
    openedAt: typeof openedAt === 'number' ? openedAt : undefined,
  };
}

function publish(live: Live, tenantId: string, notice: DeviceNotice): void {
  live.hub.publish({ topic: DEVICE_NOTICE, tenantId, data: { ...notice } });
}

/**
 * Tells the process holding the device's channel (if any) that commands were queued for it. Call
 * it after the command's transaction committed; fire-and-forget: a lost notice leaves the
 * command to the next heartbeat.
 */
export function announceDeviceCommands(live: Live, tenantId: string, deviceId: string): void {
  publish(live, tenantId, { kind: 'commands', deviceId });
}

/** Tells every process that the device was revoked: its channel is closed at once. Call after commit. */
export function announceDeviceRevoked(live: Live, tenantId: string, deviceId: string): void {
  publish(live, tenantId, { kind: 'revoked', deviceId });
}

/** An SSE frame. The data is one line of JSON, so no field splitting is needed. */
const frame = (event: string, data: unknown) => `event: ${event}\ndata: ${JSON.stringify(data)}\n\n`;

class Channel {
  readonly id = randomUUID();
  readonly openedAt = Date.now();
  private closed = false;
  private pumping = false;
  private again = false;
  private readonly timers: NodeJS.Timeout[] = [];

  constructor(
    readonly device: DevicePrincipal,
    private readonly reply: FastifyReply,
    private readonly db: Kysely<DB>,
    private readonly deps: AppDeps,
    private readonly onClosed: (channel: Channel) => void,
  ) {}

  get isClosed(): boolean {
    return this.closed || this.reply.raw.destroyed || this.reply.raw.writableEnded;
  }

  start(pingSeconds: number): void {
    const raw = this.reply.raw;
    raw.on('close', () => this.finish());
    this.write(
      frame('ready', {
        channel_id: this.id,
        device_id: this.device.deviceId,
        ping_interval_seconds: pingSeconds,
      }),
    );
    // Idle keep-alive: a comment line (EventSource ignores it) keeps proxies and NAT tables open,
    // and tells the door its connection is alive.
    const ping = setInterval(() => this.write(': ping\n\n'), pingSeconds * 1000);
    const recheck = setInterval(() => void this.recheck(), CHANNEL_RECHECK_SECONDS * 1000);
    ping.unref();
    recheck.unref();
    this.timers.push(ping, recheck);
    // Commands queued while the device was away come at once.
    this.wake();
  }

  /** Claims and sends the device's pending commands; a wake-up during a claim claims once more after it. */
  wake(): void {
    if (this.isClosed) return;
    if (this.pumping) {
      this.again = true;
      return;
    }
    this.pumping = true;
    void this.pump().finally(() => (this.pumping = false));
  }

  private async pump(): Promise<void> {
    const { tenantId, deviceId } = this.device;
    do {
      this.again = false;
      if (this.isClosed) return;
      try {
        const commands = await claimCommands(this.db, this.deps, tenantId, deviceId);
        const unsent: string[] = [];
        for (const command of commands) {
          if (!this.write(frame('command', commandView(command)))) unsent.push(command.id);
        }
        // Claimed while the connection went: back to pending, so a heartbeat hands them out.
        if (unsent.length) await releaseCommands(this.db, tenantId, deviceId, unsent, this.deps.now());
      } catch (error) {
        this.deps.log.warn({ err: error, deviceId }, 'device channel could not hand out commands');
      }
    } while (this.again);
  }

  /** Ends the channel with a last `closed` event saying why. */
  close(reason: ChannelCloseReason): void {
    if (this.closed) return;
    this.write(frame('closed', { reason }));
    this.finish();
    this.reply.raw.end();
  }

  private async recheck(): Promise<void> {
    try {
      const device = await findDevice(this.db, this.device.tenantId, this.device.deviceId);
      if (!device || device.revoked_at) this.close('revoked');
    } catch (error) {
      this.deps.log.warn({ err: error, deviceId: this.device.deviceId }, 'device channel re-check failed');
    }
  }

  /** False when the connection is gone (nothing was written). */
  private write(text: string): boolean {
    if (this.isClosed) return false;
    this.reply.raw.write(text);
    return true;
  }

  private finish(): void {
    if (this.closed) return;
    this.closed = true;
    for (const timer of this.timers) clearInterval(timer);
    this.onClosed(this);
  }
}

/**
 * The device channels open in this process, one per device: a second channel of a device (here or
 * on another process) replaces the first. Built once per app by the device routes.
 */
export class DeviceChannels {
  private readonly byDevice = new Map<string, Channel>();
  private readonly stopListening: () => void;

  constructor(
    private readonly db: Kysely<DB>,
    private readonly deps: AppDeps,
  ) {
    this.stopListening = deps.live.hub.onDeviceNotice((tenantId, data) => this.onNotice(tenantId, data));
  }

  /** Channels open in this process (metrics, tests). */
  get size(): number {
    return this.byDevice.size;
  }

  /** Turns the request into the device's channel (the caller checked the device key and its device id). */
  async open(req: FastifyRequest, reply: FastifyReply, device: DevicePrincipal): Promise<void> {
    // Notices must reach this process before the first claim, or a command queued in between waits for a heartbeat.
    await this.deps.live.hub.listen();
    const channel = new Channel(device, reply, this.db, this.deps, (c) => {
      if (this.byDevice.get(c.device.deviceId) === c) this.byDevice.delete(c.device.deviceId);
    });
    this.byDevice.get(device.deviceId)?.close('replaced');
    this.byDevice.set(device.deviceId, channel);
    publish(this.deps.live, device.tenantId, {
      kind: 'opened',
      deviceId: device.deviceId,
      channelId: channel.id,
      openedAt: channel.openedAt,
    });
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(reply.getHeaders())) {
      if (value !== undefined) headers[name] = Array.isArray(value) ? value : String(value);
    }
    reply.hijack();
    reply.raw.writeHead(200, {
      ...headers,
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      'x-accel-buffering': 'no',
      connection: 'keep-alive',
    });
    req.raw.socket.setNoDelay(true);
    channel.start(this.deps.env.deviceChannelPingSeconds);
  }

  /** Ends every channel (the server is shutting down: doors reconnect to another process). */
  closeAll(reason: ChannelCloseReason = 'shutdown'): void {
    for (const channel of [...this.byDevice.values()]) channel.close(reason);
  }

  stop(): void {
    this.stopListening();
    this.closeAll();
  }

  private onNotice(tenantId: string, data: Record<string, unknown>): void {
    const notice = noticeOf(data);
    if (!notice) return;
    const channel = this.byDevice.get(notice.deviceId);
    if (!channel || channel.device.tenantId !== tenantId) return;
    if (notice.kind === 'commands') channel.wake();
    else if (notice.kind === 'revoked') channel.close('revoked');
    else if (notice.channelId !== channel.id && isNewer(notice, channel)) channel.close('replaced');
  }
}

/** Whether the channel a notice announces opened after `channel` (ties broken by id, the same way on every process). */
function isNewer(notice: DeviceNotice, channel: Channel): boolean {
  const at = notice.openedAt ?? 0;
  if (at !== channel.openedAt) return at > channel.openedAt;
  return (notice.channelId ?? '') > channel.id;
}

const channelsOf = new WeakMap<AppDeps, DeviceChannels>();

/** The app's channels (one app per deps: the device routes make them). */
export function openDeviceChannels(db: Kysely<DB>, deps: AppDeps): DeviceChannels {
  const channels = new DeviceChannels(db, deps);
  channelsOf.set(deps, channels);
  return channels;
}

/** The channels of the app built with `deps` (tests, metrics); undefined before its routes were registered. */
export function deviceChannelsOf(deps: AppDeps): DeviceChannels | undefined {
  return channelsOf.get(deps);
}
