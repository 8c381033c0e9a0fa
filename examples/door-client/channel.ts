import http from 'node:http';
import https from 'node:https';

// The door's command channel (docs/devices.md, "The command channel"): one long-lived Server-Sent
// Events response on which Portier pushes unlock commands the moment they are queued. It is an
// addition, never a replacement: heartbeats go on every 15 s (telemetry, presence, revoked tokens)
// and hand out whatever the channel did not. A dropped channel is opened again with exponential
// back-off and jitter; one Portier refuses (key revoked, another connection of this device took
// over) is not, and the door lives on heartbeats alone.

export interface ChannelCommand {
  id: string;
  type: string;
  payload: { gpio_pin: number; duration_seconds: number };
}

export interface CommandChannelOptions {
  baseUrl: string;
  deviceId: string;
  deviceKey: string;
  onCommand: (command: ChannelCommand) => void;
  log?: (message: string) => void;
  /** First reconnect delay; doubled per failed attempt up to maxDelayMs, each with ±50 % jitter. */
  initialDelayMs?: number;
  maxDelayMs?: number;
  /** Tests: the random source of the jitter. */
  random?: () => number;
}

export const CHANNEL_INITIAL_DELAY_MS = 1_000;
export const CHANNEL_MAX_DELAY_MS = 60_000;
/** No byte (not even a ping) for this many ping intervals: the connection is dead, open another. */
const SILENCE_PINGS = 2.5;

export type ChannelState = 'connecting' | 'open' | 'waiting' | 'stopped';

/** The delay before reconnect attempt `attempt` (0-based): doubling from `initial`, capped, with jitter. */
export function reconnectDelay(attempt: number, initial: number, max: number, random: () => number): number {
  const base = Math.min(max, initial * 2 ** Math.min(attempt, 20));
  return Math.round(base * (0.5 + random() / 2));
}

export class CommandChannel {
  private state: ChannelState = 'waiting';
  private attempt = 0;
  private request: http.ClientRequest | undefined;
  private retryTimer: NodeJS.Timeout | undefined;
  private silenceTimer: NodeJS.Timeout | undefined;
  private silenceMs = 60_000;
  private readonly log: (message: string) => void;

  constructor(private readonly options: CommandChannelOptions) {
    this.log = options.log ?? (() => undefined);
  }

  get status(): ChannelState {
    return this.state;
  }

  start(): void {
    if (this.state === 'connecting' || this.state === 'open') return;
    this.connect();
  }

  stop(): void {
    this.state = 'stopped';
    clearTimeout(this.retryTimer);
    clearTimeout(this.silenceTimer);
    this.request?.destroy();
    this.request = undefined;
  }

  private connect(): void {
    this.state = 'connecting';
    const url = new URL(`/api/devices/${this.options.deviceId}/channel`, this.options.baseUrl);
    const request = (url.protocol === 'https:' ? https : http).request(url, {
      method: 'GET',
      headers: { accept: 'text/event-stream', authorization: `Bearer ${this.options.deviceKey}` },
      // Its own connection: a long-lived response must not hold one of the kept-alive sockets requests use.
      agent: false,
    });
    this.request = request;
    request.on('response', (res) => {
      if (res.statusCode !== 200) {
        res.resume();
        // Refused for good (revoked key 401, another device's id 403, unknown 404): heartbeats alone.
        if (res.statusCode && res.statusCode >= 400 && res.statusCode < 500 && res.statusCode !== 429)
          return this.giveUp(`command channel refused (HTTP ${res.statusCode}); polling by heartbeat only`);
        return this.retry(`command channel answered HTTP ${res.statusCode}`);
      }
      res.setEncoding('utf8');
      let buffered = '';
      this.alive();
      res.on('data', (chunk: string) => {
        this.alive();
        buffered += chunk;
        let end;
        while ((end = buffered.indexOf('\n\n')) >= 0) {
          const block = buffered.slice(0, end);
          buffered = buffered.slice(end + 2);
          this.onEvent(block);
        }
      });
      res.on('end', () => this.retry('command channel ended'));
      res.on('error', () => this.retry('command channel broke'));
    });
    request.on('error', (error) => this.retry(`command channel unreachable: ${error.message}`));
    request.end();
  }

  private onEvent(block: string): void {
    let event = 'message';
    const data: string[] = [];
    for (const line of block.split('\n')) {
      if (line.startsWith(':')) continue; // a ping
      const colon = line.indexOf(':');
      const field = colon < 0 ? line : line.slice(0, colon);
      const value = colon < 0 ? '' : line.slice(colon + 1).replace(/^ /, '');
      if (field === 'event') event = value;
      else if (field === 'data') data.push(value);
    }
    if (!data.length) return;
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(data.join('\n')) as Record<string, unknown>;
    } catch {
      return;
    }
    if (event === 'ready') {
      this.state = 'open';
      this.attempt = 0;
      const seconds = typeof body.ping_interval_seconds === 'number' ? body.ping_interval_seconds : 25;
      this.silenceMs = seconds * 1000 * SILENCE_PINGS;
      this.alive();
      this.log('command channel open');
    } else if (event === 'command') {
      this.options.onCommand(body as unknown as ChannelCommand);
    } else if (event === 'closed') {
      const reason = String(body.reason);
      // Another connection of this device took over, or the device was revoked: do not fight it.
      if (reason === 'replaced' || reason === 'revoked')
        this.giveUp(`command channel closed by Portier (${reason}); polling by heartbeat only`);
      // shutdown: that process is stopping; the next attempt reaches another one.
    }
  }

  /** Bytes arrived: the connection lives; without any for a while it is dropped and opened again. */
  private alive(): void {
    clearTimeout(this.silenceTimer);
    this.silenceTimer = setTimeout(() => {
      this.request?.destroy();
      this.retry('command channel silent; reconnecting');
    }, this.silenceMs);
    this.silenceTimer.unref?.();
  }

  private giveUp(message: string): void {
    if (this.state === 'stopped') return;
    this.log(message);
    this.stop();
  }

  private retry(message: string): void {
    if (this.state === 'stopped' || this.state === 'waiting') return;
    this.state = 'waiting';
    clearTimeout(this.silenceTimer);
    this.request?.destroy();
    this.request = undefined;
    const delay = reconnectDelay(
      this.attempt++,
      this.options.initialDelayMs ?? CHANNEL_INITIAL_DELAY_MS,
      this.options.maxDelayMs ?? CHANNEL_MAX_DELAY_MS,
      this.options.random ?? Math.random,
    );
    this.log(`${message}; next attempt in ${delay} ms (heartbeats go on)`);
    this.retryTimer = setTimeout(() => this.connect(), delay);
    this.retryTimer.unref?.();
  }
}
