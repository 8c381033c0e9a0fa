import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DoorClient, type DoorState } from './door-client.js';

// npm run door -- --activation-code CODE [--url http://127.0.0.1:3000] [--state ./door-state.json]
// Activates on first run (the device key is kept in the state file, mode 0600), then heartbeats
// every 15 s and executes unlock commands until stopped. Scans are read from stdin, one per line:
// "<doorId> <token>".

const { values } = parseArgs({
  options: {
    'activation-code': { type: 'string' },
    url: { type: 'string', default: 'http://127.0.0.1:3000' },
    state: { type: 'string', default: './door-state.json' },
  },
});

const stateFile = values.state;
const store = {
  load: () => (existsSync(stateFile) ? (JSON.parse(readFileSync(stateFile, 'utf8')) as DoorState) : undefined),
  save: (state: DoorState) => writeFileSync(stateFile, JSON.stringify(state, null, 2), { mode: 0o600 }),
};
const client = new DoorClient({ baseUrl: values.url, store, log: (m) => console.error(`[door] ${m}`) });

if (!client.isActivated) {
  const code = values['activation-code'];
  if (!code) {
    console.error('Not activated yet: pass --activation-code CODE (shown once when the device was registered).');
    process.exit(2);
  }
  await client.activate(code);
  console.error(`[door] activated as device ${client.deviceId}; key stored in ${stateFile}`);
}
client.start();

process.stdin.setEncoding('utf8');
let buffered = '';
process.stdin.on('data', (chunk: string) => {
  buffered += chunk;
  const lines = buffered.split('\n');
  buffered = lines.pop() ?? '';
  for (const line of lines) {
    const [doorId, token] = line.trim().split(/\s+/);
    if (!doorId || !token) continue;
    void client.scan(token, doorId).then((r) => console.log(JSON.stringify({ doorId, ...r })));
  }
});
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => (client.stop(), process.exit(0)));
