import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The node arguments of an npm script that runs `node …` (package.json `scripts[name]`, after `node`). */
export function nodeArgsOf(script: string): string[] {
  const packageJson = fileURLToPath(new URL('../package.json', import.meta.url));
  const line = (JSON.parse(readFileSync(packageJson, 'utf8')) as { scripts: Record<string, string> }).scripts[script];
  const [command, ...args] = line.split(/\s+/);
  if (command !== 'node') throw new Error(`npm run ${script} is expected to run node, not: ${line}`);
  return args;
}

/** The node arguments of `npm start` (package.json `scripts.start`, after `node`): tests and the bench start the server exactly so. */
export const START_ARGS: string[] = nodeArgsOf('start');

/** The node arguments of `npm run cli`. */
export const CLI_ARGS: string[] = nodeArgsOf('cli');
