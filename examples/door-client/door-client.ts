import { decideOffline, type DeviceConfig, type OfflineReason } from './offline-decision.js';
import { doorTransport, type DoorTransport } from './transport.js';
import { CommandChannel, type ChannelCommand, type CommandChannelOptions } from './channel.js';

// Portier's reference door controller: what firmware does, in TypeScript. It activates with its
// one-time code, keeps its device key, holds the command channel (channel.ts: unlock commands the
// moment they are queued), sends a heartbeat every 15 s (telemetry in, unlock commands the channel
// did not bring and revoked token ids out), answers scans online through access-check and, when Portier cannot
// be reached, decides QR tokens itself (offline-decision.ts) and reports those decisions later.
// Everything outside (network, clock, storage, relays) is passed in, so tests drive it directly.

export interface DoorState {
  deviceId?: string;
  deviceKey?: string;
  config?: DeviceConfig;
  configFetchedAt?: string;
  lastHeartbeatAt?: string;
  /** Revoked token ids and when they were learned. */
  revoked: Record<string, string>;
  /** Offline decisions not yet reported. */
  pendingLog: {
    token_id: string | null;
    door_id: string;
    decided_at: string;
    allowed: boolean;
    reason?: OfflineReason;
  }[];
}

export interface StateStore {
  load(): DoorState | undefined;
  save(state: DoorState): void;
}

export const memoryStore = (): StateStore => {
  let saved: string | undefined;
  return {
    load: () => (saved ? (JSON.parse(saved) as DoorState) : undefined),
    save: (s) => void (saved = JSON.stringify(s)),
  };
};

/** The door hardware: a relay per GPIO pin. */
export interface Actuator {
  unlock(gpioPin: number, seconds: number): Promise<void>;
  doorStates(): Record<string, 'locked' | 'unlocked'>;
}

export interface DoorClientOptions {
  baseUrl: string;
  /** How requests are sent; default a kept-alive connection of the door's own (transport.ts). */
  fetch?: typeof fetch;
  now?: () => Date;
  store?: StateStore;
  actuator?: Actuator;
  telemetry?: () => { cpu_percent: number; memory_percent: number; wifi_signal_dbm: number };
  log?: (message: string) => void;
  /**
   * Hold the command channel (default: when requests go over the door's own transport, i.e. no
   * `fetch` was given); `false` polls by heartbeat only. An object tunes its reconnect back-off.
   */
  channel?: boolean | Pick<CommandChannelOptions, 'initialDelayMs' | 'maxDelayMs' | 'random'>;
}

export interface ScanResult {
  allowed: boolean;
  reason?: string;
  mode: 'online' | 'offline';
}

/** Fetch the config again after this long, and after every outage (new keys after a rotation). */
export const CONFIG_REFRESH_SECONDS = 300;
/** Forget a revoked id after this long (no booking is made further ahead). */
const REVOCATION_MEMORY_DAYS = 400;

/** Portier did not answer (network down, server stopped, 5xx): the door may decide alone. */
class Unreachable extends Error {}

export class DoorClient {
  private readonly fetchFn: typeof fetch;
  private readonly now: () => Date;
  private readonly store: StateStore;
  private readonly actuator: Actuator;
  private readonly log: (message: string) => void;
  private state: DoorState;
  private timer: NodeJS.Timeout | undefined;
  private online = false;
  private readonly transport: DoorTransport | undefined;
  private channel: CommandChannel | undefined;
  /** Ids of commands already executed (a command must never unlock twice, whichever way it came). */
  private readonly executed = new Set<string>();

  constructor(private readonly options: DoorClientOptions) {
    if (options.fetch) this.fetchFn = options.fetch;
    else {
      this.transport = doorTransport();
      this.fetchFn = this.transport.fetch;
    }
    this.now = options.now ?? (() => new Date());
    this.store = options.store ?? memoryStore();
    this.log = options.log ?? (() => undefined);
    this.actuator = options.actuator ?? {
      unlock: async (pin, seconds) => this.log(`unlock GPIO ${pin} for ${seconds} s`),
      doorStates: () => ({}),
    };
    this.state = this.store.load() ?? { revoked: {}, pendingLog: [] };
  }

  get deviceId(): string | undefined {
    return this.state.deviceId;
  }

  get isActivated(): boolean {
    return Boolean(this.state.deviceKey);
  }

  /** Activates with the one-time code and stores the device key (shown only once). */
  async activate(activationCode: string, serial = 'REF-DOOR-1', firmwareVersion = 'reference-1.0.0'): Promise<void> {
    const res = await this.call(
      'POST',
      '/api/devices/activate',
      { activation_code: activationCode, serial, firmware_version: firmwareVersion },
      false,
    );
    if (res.status !== 200) throw new Error(`Activation refused (${res.status}): ${JSON.stringify(res.body)}`);
    const body = res.body as { device_id: string; device_key: string };
    this.state = { revoked: {}, pendingLog: [], deviceId: body.device_id, deviceKey: body.device_key };
    this.save();
    await this.refreshConfig();
  }

  async refreshConfig(): Promise<DeviceConfig> {
    const res = await this.call('GET', `/api/devices/${this.requireId()}/config`);
    if (res.status !== 200) throw new Error(`Config refused (${res.status})`);
    this.state.config = res.body as DeviceConfig;
    this.state.configFetchedAt = this.now().toISOString();
    this.save();
    return this.state.config;
  }

  /**
   * One heartbeat: telemetry out; revoked token ids, unlock commands in. After an outage (or every
   * CONFIG_REFRESH_SECONDS) the config is fetched again, and unreported offline decisions are sent.
   * Returns false when Portier could not be reached.
   */
  async heartbeat(): Promise<boolean> {
    const telemetry = this.options.telemetry?.() ?? { cpu_percent: 5, memory_percent: 20, wifi_signal_dbm: -55 };
    let res;
    try {
      res = await this.call('POST', `/api/devices/${this.requireId()}/heartbeat`, {
        ...telemetry,
        door_states: this.actuator.doorStates(),
      });
    } catch (error) {
      if (!(error instanceof Unreachable)) throw error;
      this.online = false;
      return false;
    }
    if (res.status !== 200) throw new Error(`Heartbeat refused (${res.status}): ${JSON.stringify(res.body)}`);
    const wasOffline = !this.online;
    this.online = true;
    const body = res.body as {
      pending_commands: { id: string; type: string; payload: { gpio_pin: number; duration_seconds: number } }[];
      revoked_token_ids?: string[];
    };
    const now = this.now();
    this.state.lastHeartbeatAt = now.toISOString();
    for (const id of body.revoked_token_ids ?? []) this.state.revoked[id] = now.toISOString();
    this.forgetOldRevocations(now);
    this.save();
    for (const command of body.pending_commands) await this.execute(command);
    const configAge = this.state.configFetchedAt ? now.getTime() - Date.parse(this.state.configFetchedAt) : Infinity;
    if (wasOffline || configAge > CONFIG_REFRESH_SECONDS * 1000) await this.refreshConfig().catch(() => undefined);
    await this.reportOfflineDecisions().catch(() => undefined);
    return true;
  }

  /** A scanned QR token or typed SMS code at one of this controller's doors. */
  async scan(token: string, doorId: string): Promise<ScanResult> {
    const door = this.state.config?.doors.find((d) => d.id === doorId);
    try {
      const res = await this.call('POST', `/api/devices/${this.requireId()}/access-check`, { token, doorId });
      if (res.status === 200) {
        const body = res.body as { allowed: boolean; reason?: string; unlockDurationSeconds?: number };
        if (body.allowed && door)
          await this.actuator.unlock(door.gpio_pin, body.unlockDurationSeconds ?? door.unlock_duration_seconds);
        return body.allowed
          ? { allowed: true, mode: 'online' }
          : { allowed: false, reason: body.reason, mode: 'online' };
      }
      // Portier answered and refused (403 door_not_assigned, 429 too many SMS guesses): never decide alone then.
      return {
        allowed: false,
        reason: (res.body as { code?: string } | undefined)?.code ?? `http_${res.status}`,
        mode: 'online',
      };
    } catch (error) {
      if (!(error instanceof Unreachable)) throw error;
    }
    return this.decideAlone(token, doorId);
  }

  private async decideAlone(token: string, doorId: string): Promise<ScanResult> {
    const config = this.state.config;
    if (!config) return { allowed: false, reason: 'offline_limit_exceeded', mode: 'offline' };
    const now = this.now();
    const decision = await decideOffline({
      token,
      doorId,
      config,
      revoked: new Set(Object.keys(this.state.revoked)),
      lastHeartbeatAt: this.state.lastHeartbeatAt ? new Date(this.state.lastHeartbeatAt) : null,
      now,
    });
    this.state.pendingLog.push({
      token_id: decision.tokenId ?? null,
      door_id: doorId,
      decided_at: now.toISOString(),
      allowed: decision.allowed,
      ...(decision.allowed ? {} : { reason: decision.reason }),
    });
    this.save();
    const door = config.doors.find((d) => d.id === doorId);
    if (decision.allowed && door) await this.actuator.unlock(door.gpio_pin, door.unlock_duration_seconds);
    return decision.allowed
      ? { allowed: true, mode: 'offline' }
      : { allowed: false, reason: decision.reason, mode: 'offline' };
  }

  /**
   * Sends the offline decisions not yet reported (in batches of 500); each is stored once however
   * often it is sent. Entries Portier refuses (answer's `rejected`) are logged and not sent again.
   */
  async reportOfflineDecisions(): Promise<number> {
    let sent = 0;
    while (this.state.pendingLog.length) {
      const batch = this.state.pendingLog.slice(0, 500);
      const res = await this.call('POST', `/api/devices/${this.requireId()}/access-log`, { entries: batch });
      if (res.status !== 202) throw new Error(`Access-log report refused (${res.status}): ${JSON.stringify(res.body)}`);
      // Entries Portier does not believe are dropped (sending them again is refused again), each shown.
      for (const { index, reason } of (res.body as { rejected?: { index: number; reason: string }[] }).rejected ?? []) {
        const entry = batch[index];
        if (entry)
          this.log(
            `offline decision refused by Portier (${reason}): door ${entry.door_id} at ${entry.decided_at}, token ${entry.token_id ?? 'none'}, allowed ${entry.allowed}`,
          );
      }
      this.state.pendingLog = this.state.pendingLog.slice(batch.length);
      this.save();
      sent += batch.length;
    }
    return sent;
  }

  /** The command channel's state, or undefined when the door polls by heartbeat only. */
  get channelStatus(): CommandChannel['status'] | undefined {
    return this.channel?.status;
  }

  /** Opens the command channel (start() does, when enabled): commands arrive as soon as they are queued. */
  openChannel(): void {
    if (this.channel && this.channel.status !== 'stopped') return;
    const key = this.state.deviceKey;
    if (!key) throw new Error('Not activated: run with --activation-code CODE first');
    const tuning = typeof this.options.channel === 'object' ? this.options.channel : {};
    this.channel = new CommandChannel({
      ...tuning,
      baseUrl: this.options.baseUrl,
      deviceId: this.requireId(),
      deviceKey: key,
      log: this.log,
      onCommand: (command) =>
        void this.execute(command).catch((error: unknown) => this.log(`command failed: ${(error as Error).message}`)),
    });
    this.channel.start();
  }

  /** Heartbeats every interval (and the command channel, when enabled) until stop(). */
  start(): void {
    const channel = this.options.channel ?? !this.options.fetch;
    if (channel) this.openChannel();
    const tick = async () => {
      try {
        if (!(await this.heartbeat())) this.log('Portier unreachable: deciding QR tokens offline');
      } catch (error) {
        this.log(`heartbeat failed: ${(error as Error).message}`);
      }
      this.timer = setTimeout(() => void tick(), (this.state.config?.heartbeat_interval_seconds ?? 15) * 1000);
    };
    void tick();
  }

  /** Stops the heartbeats and closes the kept connection. */
  stop(): void {
    this.channel?.stop();
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.transport?.close();
  }

  private async execute(command: ChannelCommand): Promise<void> {
    if (this.executed.has(command.id)) return;
    this.executed.add(command.id);
    // Remember the last few hundred only: ids are never reused.
    if (this.executed.size > 500) this.executed.delete(this.executed.values().next().value as string);
    let report: { status: 'executed' | 'failed'; result?: unknown; error?: string };
    if (command.type !== 'unlock') {
      report = { status: 'failed', error: `unknown command type ${command.type}` };
    } else {
      try {
        await this.actuator.unlock(command.payload.gpio_pin, command.payload.duration_seconds);
        report = { status: 'executed', result: { unlocked_at: this.now().toISOString() } };
      } catch (error) {
        report = { status: 'failed', error: (error as Error).message };
      }
    }
    await this.call('PATCH', `/api/devices/${this.requireId()}/commands/${command.id}`, report).catch(() => undefined);
  }

  private forgetOldRevocations(now: Date): void {
    const cutoff = now.getTime() - REVOCATION_MEMORY_DAYS * 86_400_000;
    this.state.revoked = Object.fromEntries(
      Object.entries(this.state.revoked).filter(([, learned]) => !(Date.parse(learned) < cutoff)),
    );
  }

  private requireId(): string {
    if (!this.state.deviceId) throw new Error('Not activated: run with --activation-code CODE first');
    return this.state.deviceId;
  }

  private save(): void {
    this.store.save(this.state);
  }

  private async call(
    method: string,
    path: string,
    body?: unknown,
    authenticated = true,
  ): Promise<{ status: number; body: unknown }> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers['content-type'] = 'application/json';
    if (authenticated && this.state.deviceKey) headers.authorization = `Bearer ${this.state.deviceKey}`;
    let res: Response;
    try {
      res = await this.fetchFn(new URL(path, this.options.baseUrl), {
        method,
        headers,
        body: body === undefined ? undefined : JSON.stringify(body),
        signal: AbortSignal.timeout(5000),
      });
    } catch (error) {
      throw new Unreachable((error as Error).message);
    }
    if (res.status >= 500) throw new Unreachable(`HTTP ${res.status}`);
    const text = await res.text();
    return { status: res.status, body: text ? (JSON.parse(text) as unknown) : undefined };
  }
}
