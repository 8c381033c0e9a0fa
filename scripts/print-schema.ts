import { MODULES } from '../src/app/modules.js';
// Prints the public schema to schema.graphql (`npm run codegen` runs it); with --check, exits
// non-zero when the committed file differs from what schema/ builds (CI).
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { buildSchema } from '../src/transport/graphql/schema.js';
import { PRINTED_SCHEMA_FILE, printPublicSchema } from '../src/transport/graphql/printed.js';

const file = fileURLToPath(new URL(`../${PRINTED_SCHEMA_FILE}`, import.meta.url));
const printed = printPublicSchema(buildSchema(MODULES));
if (process.argv.includes('--check')) {
  let committed = '';
  try {
    committed = readFileSync(file, 'utf8');
  } catch {
    // missing: reported below
  }
  if (committed !== printed) {
    console.error(`${PRINTED_SCHEMA_FILE} is not what schema/ builds: run 'npm run codegen' and commit the result`);
    process.exit(1);
  }
  console.error(`${PRINTED_SCHEMA_FILE} is up to date`);
} else {
  writeFileSync(file, printed);
}
