import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DoorClient, type DoorState } from './door-client.js';

const USAGE = `Portier's reference door controller.

Usage: npm run door -- [--activation-code CODE] [--url URL] [--state FILE]

  --activation-code CODE  the one-time code shown when the device was registered (first run only)
  --url URL               Portier's address (default http://127.0.0.1:3000)
  --state FILE            where the device key and pending offline decisions are kept, mode 0600
                          (default ./door-state.json)
  -h, --help              print this help and exit

Activates on first run, then heartbeats every 15 s and executes unlock commands until stopped.
Scans are read from stdin, one per line: "<doorId> <token>"; each answer is printed as JSON.
Log lines (stderr) start with [door]; offline decisions Portier refused are logged there.
`;

let values;
try {
  ({ values } = parseArgs({
    options: {
      'activation-code': { type: 'string' },
      url: { type: 'string', default: 'http://127.0.0.1:3000' },
      state: { type: 'string', default: './door-state.json' },
      help: { type: 'boolean', short: 'h', default: false },
    },
  }));
} catch (error) {
  process.stderr.write(`${(error as Error).message}\n\n${USAGE}`);
  process.exit(2);
}
if (values.help) {
  process.stdout.write(USAGE);
  process.exit(0);
}

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
