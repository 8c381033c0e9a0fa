import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The node arguments of `npm start` (package.json `scripts.start`, after `node`): tests and the bench start the server exactly so. */
export const START_ARGS: string[] = (() => {
  const packageJson = fileURLToPath(new URL('../package.json', import.meta.url));
  const start = (JSON.parse(readFileSync(packageJson, 'utf8')) as { scripts: { start: string } }).scripts.start;
  const [command, ...args] = start.split(/\s+/);
  if (command !== 'node') throw new Error(`npm start is expected to run node, not: ${start}`);
  return args;
})();
