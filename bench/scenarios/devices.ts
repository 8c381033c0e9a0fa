// Load scenarios of the device protocol: request configs for the bench runner (autocannon's
// `requests` shape: method, path, headers, body). Self-contained: given a base URL and device
// credentials, they need nothing else from Portier.
//
// Mind the limits when choosing inputs: a device gets 429 after 10 invalid_token denials a minute,
// so access-check scenarios should use valid tokens (an allowed or a deliberately denied booking),
// and spread load over several devices when a per-key request rate limit is in force.

export interface DeviceCredentials {
  deviceId: string;
  /** svc_dk_… as returned by POST /api/devices/activate. */
  deviceKey: string;
}

export interface AccessAttempt {
  /** A QR token or SMS code of a booking. */
  token: string;
  /** A door the device drives. */
  doorId: string;
}

export interface Telemetry {
  cpu_percent: number;
  memory_percent: number;
  wifi_signal_dbm: number;
  door_states: Record<string, 'locked' | 'unlocked'>;
}

export interface BenchRequest {
  method: 'GET' | 'POST';
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface Scenario {
  name: string;
  /** The base URL (autocannon `url`); request paths are absolute paths under it. */
  url: string;
  /** Cycled in order by each connection. */
  requests: BenchRequest[];
  /** Whether a response is the expected one (for counting wrong answers, not only errors). */
  check(status: number, body: string): boolean;
}

export const DEFAULT_TELEMETRY: Telemetry = {
  cpu_percent: 12,
  memory_percent: 38,
  wifi_signal_dbm: -60,
  door_states: {},
};

function headers(device: DeviceCredentials, withBody: boolean): Record<string, string> {
  return { authorization: `Bearer ${device.deviceKey}`, ...(withBody ? { 'content-type': 'application/json' } : {}) };
}

export function heartbeatRequest(device: DeviceCredentials, telemetry: Telemetry = DEFAULT_TELEMETRY): BenchRequest {
  return {
    method: 'POST',
    path: `/api/devices/${encodeURIComponent(device.deviceId)}/heartbeat`,
    headers: headers(device, true),
    body: JSON.stringify(telemetry),
  };
}

export function accessCheckRequest(device: DeviceCredentials, attempt: AccessAttempt): BenchRequest {
  return {
    method: 'POST',
    path: `/api/devices/${encodeURIComponent(device.deviceId)}/access-check`,
    headers: headers(device, true),
    body: JSON.stringify({ token: attempt.token, doorId: attempt.doorId }),
  };
}

export function configRequest(device: DeviceCredentials): BenchRequest {
  return {
    method: 'GET',
    path: `/api/devices/${encodeURIComponent(device.deviceId)}/config`,
    headers: headers(device, false),
  };
}

/** Every device sends heartbeats; each answer must be {status: "ok", …}. */
export function heartbeatScenario(baseUrl: string, devices: DeviceCredentials[], telemetry?: Telemetry): Scenario {
  if (devices.length === 0) throw new Error('heartbeatScenario needs at least one device');
  return {
    name: 'device heartbeat',
    url: baseUrl.replace(/\/+$/, ''),
    requests: devices.map((d) => heartbeatRequest(d, telemetry)),
    check: (status, body) => status === 200 && body.includes('"status":"ok"'),
  };
}

/**
 * Access checks cycling through the given attempts (each with the device that makes it). With
 * `expectAllowed` (default true) an answer counts as right only when it allows entry.
 */
export function accessCheckScenario(
  baseUrl: string,
  attempts: { device: DeviceCredentials; attempt: AccessAttempt }[],
  options: { expectAllowed?: boolean } = {},
): Scenario {
  if (attempts.length === 0) throw new Error('accessCheckScenario needs at least one attempt');
  const expectAllowed = options.expectAllowed ?? true;
  return {
    name: 'device access check',
    url: baseUrl.replace(/\/+$/, ''),
    requests: attempts.map(({ device, attempt }) => accessCheckRequest(device, attempt)),
    check: (status, body) => status === 200 && body.includes(`"allowed":${expectAllowed}`),
  };
}
