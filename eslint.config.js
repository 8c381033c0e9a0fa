// @ts-check
import { readdirSync, readFileSync } from 'node:fs';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { importX } from 'eslint-plugin-import-x';
import { createTypeScriptImportResolver } from 'eslint-import-resolver-typescript';
import graphqlPlugin from '@graphql-eslint/eslint-plugin';
import reactHooks from 'eslint-plugin-react-hooks';
import jsxA11y from 'eslint-plugin-jsx-a11y-x';

// The boundaries (docs/architecture.md, "What the lint enforces"), derived from the code:
// - layers are folders: src/kernel imports nothing above it; src/modules never import transport or
//   app; src/transport never imports app; only src/app (and the entry points src/*.ts) list modules;
// - a module imports another only through its public face (src/modules/<m>/index.ts), and only one
//   it declares in `dependsOn` of its `defineModule({ name, dependsOn, … })` call in that index.ts.
//   The call is read here as text (the first `name:` and `dependsOn: [...]` inside defineModule), so
//   write both as literals.
// Tests may reach inside (they test internals), so the zones cover src/ only.
const MODULES = readdirSync(new URL('./src/modules', import.meta.url), { withFileTypes: true })
  .filter((entry) => entry.isDirectory())
  .map((entry) => entry.name);

/** Each module's declared dependencies, read from its defineModule call. */
export const MODULE_DEPENDENCIES = Object.fromEntries(
  MODULES.map((m) => {
    const source = readFileSync(new URL(`./src/modules/${m}/index.ts`, import.meta.url), 'utf8');
    const call = /defineModule\(\{\s*name:\s*'([^']+)',\s*dependsOn:\s*\[([^\]]*)\]/.exec(source);
    if (!call || call[1] !== m)
      throw new Error(
        `src/modules/${m}/index.ts: expected defineModule({ name: '${m}', dependsOn: [...] }) with literal values`,
      );
    const dependsOn = [...(call[2] ?? '').matchAll(/'([^']+)'/g)].map((found) => found[1] ?? '');
    for (const dependency of dependsOn) {
      if (!MODULES.includes(dependency))
        throw new Error(`src/modules/${m}/index.ts: dependsOn names '${dependency}', which is not a module`);
    }
    return [m, dependsOn];
  }),
);

/** @type {import('eslint-plugin-import-x').RuleOptions['import-x/no-restricted-paths'][0]['zones']} */
const boundaryZones = [
  {
    target: './src/kernel',
    from: ['./src/transport', './src/modules', './src/app', './src/main.ts', './src/worker.ts', './src/cli.ts'],
    message:
      'The kernel imports nothing above it (modules, transport, app): declare an interface in the kernel and wire the implementation in src/app.',
  },
  {
    target: './src/modules',
    from: ['./src/transport', './src/app', './src/main.ts', './src/worker.ts', './src/cli.ts'],
    message: 'Modules never import transport or the application layer: what they share lives in src/kernel.',
  },
  {
    target: './src/transport',
    from: ['./src/app', './src/main.ts', './src/worker.ts', './src/cli.ts'],
    message: 'Transport never imports the application layer: it gets the module list through deps.modules.',
  },
  ...MODULES.map((m) => ({
    target: `./src/modules/${m}`,
    from: './src/modules',
    except: [`./${m}`, ...(MODULE_DEPENDENCIES[m] ?? []).map((o) => `./${o}/index.ts`)],
    message: `Module '${m}' may import only the index.ts of the modules its defineModule declares in dependsOn (${(MODULE_DEPENDENCIES[m] ?? []).join(', ') || 'none'}); add the dependency there first.`,
  })),
  {
    target: ['./src/*.ts', './src/!(modules)/**'],
    from: './src/modules',
    except: MODULES.map((m) => `./${m}/index.ts`),
    message: 'Outside src/modules, import a module only through its public face (src/modules/<module>/index.ts).',
  },
];

/** JavaScript and TypeScript; the GraphQL SDL has its own block at the end. */
// Enums whose value names are wire values fixed by the REST contract, the device protocol or the
// database (time_based, unlock_per_scan, monday, pending, …): GraphQL serializes an enum value as its
// name, so these names are lowercase snake_case to keep REST and device bodies byte for byte
// (docs/schema.md, "Enums and scalars"). Every other enum keeps UPPER_CASE values.
const WIRE_VALUE_ENUMS = [
  'PricingRuleType',
  'Weekday',
  'DoorBehavior',
  'DeviceCommandType',
  'DeviceCommandStatus',
  'DoorLockState',
  'AccessDenialReason',
  'AccessMode',
  'CredentialType',
];
const wireValueEnums = `EnumTypeDefinition[name.value=/^(${WIRE_VALUE_ENUMS.join('|')})$/]`;

/** graphql-eslint's recommended naming conventions, with enum values checked per enum (above). */
const { EnumValueDefinition: enumValueStyle, ...namingConventions } = /** @type {Record<string, unknown>} */ (
  /** @type {unknown[]} */ (
    graphqlPlugin.configs['flat/schema-recommended'].rules['@graphql-eslint/naming-convention']
  )[1]
);

const CODE = ['**/*.ts', '**/*.tsx', '**/*.mts', '**/*.cts', '**/*.js', '**/*.mjs', '**/*.cjs'];

// Where @typescript-eslint/no-unsafe-enum-assignment runs (docs/development.md, "Lint"). The rule
// asks the type checker for the contextual type of every argument, property and initializer and
// walks it five levels deep for an enum; on Kysely's and the generated resolvers' types that was 90 %
// of the whole lint (14 of 15 minutes). It can only report where a value meets a TypeScript enum,
// and the project declares none (GraphQL enums are generated as string unions: codegen.ts,
// enumsAsTypes), so enums come from packages alone: it runs on the files that import one of the
// packages whose type declarations declare an enum (graphql's Kind, OpenTelemetry's SpanStatusCode,
// …). test/lint/enum-packages.test.ts fails when the code imports a package that declares an enum
// and is missing here.
export const ENUM_PACKAGES = [
  '@envelop/generic-auth',
  '@graphql-codegen/cli',
  '@graphql-inspector/core',
  '@graphql-tools/utils',
  '@node-rs/argon2',
  '@opentelemetry/api',
  '@opentelemetry/core',
  '@sinclair/typebox',
  'ajv',
  'dpdm',
  'fast-check',
  'graphql',
  'graphql-scalars',
  'graphql-ws',
  'graphql-yoga',
  'ical-generator',
  'jsqr',
  'prom-client',
  'react-router',
  'sofa-api',
  'typescript',
];
const escapeRegExp = (text) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** An import (static, re-export, dynamic or type-only) of one of ENUM_PACKAGES or a subpath of it. */
export const IMPORTS_ENUM_PACKAGE = new RegExp(
  `(?:\\bfrom|\\bimport\\(?)\\s*['"](?:${ENUM_PACKAGES.map(escapeRegExp).join('|')})(?:/[^'"]*)?['"]`,
);
const LINTED_DIRS = ['src', 'test', 'dashboard', 'bench', 'scripts', 'examples', 'migrations'];
const SKIPPED_DIRS = new Set(['node_modules', 'dist', 'gql', 'fixtures', 'sdk']);
/** The TypeScript files (relative to this directory) that import an enum-declaring package. */
function filesImportingEnumPackages() {
  const found = [];
  const visit = (dir) => {
    for (const entry of readdirSync(new URL(`./${dir}`, import.meta.url), { withFileTypes: true })) {
      const path = `${dir}/${entry.name}`;
      if (entry.isDirectory()) {
        if (!SKIPPED_DIRS.has(entry.name)) visit(path);
      } else if (/\.(?:ts|tsx|mts|cts)$/.test(entry.name)) {
        if (IMPORTS_ENUM_PACKAGE.test(readFileSync(new URL(`./${path}`, import.meta.url), 'utf8'))) found.push(path);
      }
    }
  };
  for (const dir of LINTED_DIRS) visit(dir);
  for (const file of ['codegen.ts', 'vitest.config.ts'])
    if (IMPORTS_ENUM_PACKAGE.test(readFileSync(new URL(`./${file}`, import.meta.url), 'utf8'))) found.push(file);
  // As glob patterns: a name's glob characters are escaped.
  return found.map((file) => file.replace(/[*?[\]{}()!+@]/g, '\\$&'));
}
const ENUM_FILES = filesImportingEnumPackages();

export default tseslint.config(
  {
    ignores: [
      'schema/released.graphql',
      'dist/**',
      'generated/**',
      'src/kernel/db/schema.generated.ts',
      'node_modules/**',
      'coverage/**',
      'test-results/**',
      'test/lint/fixtures/**',
      'dashboard/dist/**',
      'dashboard/src/gql/**',
    ],
  },
  { ...js.configs.recommended, files: CODE },
  ...tseslint.configs.strictTypeChecked.map((config) => ({ ...config, files: config.files ?? CODE })),
  {
    files: CODE,
    languageOptions: {
      parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname },
    },
  },
  {
    // The module boundaries and the one reader of process.env: src only (tests, bench and scripts may reach inside).
    files: ['src/**'],
    plugins: { 'import-x': importX },
    settings: {
      // import-x resolves an import to its file through the TypeScript resolver (no-restricted-paths).
      'import-x/extensions': ['.ts', '.js'],
      'import-x/parsers': { '@typescript-eslint/parser': ['.ts'] },
      'import-x/resolver-next': [createTypeScriptImportResolver({ project: './tsconfig.json' })],
    },
    rules: {
      // No import cycles: not import-x/no-cycle here (it parsed every file an import leads to), but
      // dpdm over every file in src/, type imports included (`npm run cycles`), which `npm run lint`
      // runs beside ESLint (scripts/lint.sh; test/lint/cycles.test.ts).
      'import-x/no-restricted-paths': ['error', { zones: boundaryZones }],
      // Only src/kernel/env.ts reads the environment (STYLE.md habit 7); everything else gets deps.env.
      'no-restricted-properties': [
        'error',
        {
          object: 'process',
          property: 'env',
          message: 'Read configuration in src/kernel/env.ts and pass it through deps.env.',
        },
      ],
    },
  },
  {
    files: CODE,
    rules: {
      // Switched off or relaxed, each with its reason:
      // Template literals with numbers are how the code writes messages and SQL fragments.
      '@typescript-eslint/restrict-template-expressions': [
        'error',
        { allowNumber: true, allowBoolean: true, allowNullish: true },
      ],
      // Fastify and yoga type their hooks as returning a promise-or-void; the callbacks are fine.
      '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: false }],
      // Kysely's builders and graphql's resolver maps make `x as Type` after a check the clearest form.
      '@typescript-eslint/no-unnecessary-type-assertion': 'error',
      // Defensive `?? default` on values the generated types call non-null (GraphQL args) is kept on purpose.
      '@typescript-eslint/no-unnecessary-condition': 'off',
      // `() => void x`, `(x) => done(x)` and `return reply.send(…)` are this codebase's idioms; the rule flags style, not bugs.
      '@typescript-eslint/no-confusing-void-expression': 'off',
      // Fastify handlers and hooks are async on purpose: fastify treats an async handler's return value as the reply.
      '@typescript-eslint/require-await': 'off',
      // No `!`: commands are parsed into typed values at the edge (src/kernel/commands.ts), so types say what is known.
      '@typescript-eslint/no-non-null-assertion': 'error',
      // `void` in union return types is fastify's own hook signature.
      '@typescript-eslint/no-invalid-void-type': 'off',
      // Classes of static helpers are not used; the rule flags error subclasses with statics.
      '@typescript-eslint/no-extraneous-class': 'off',
      // Unused arguments named _ are resolver positions (parent, args) kept for readability.
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
    },
  },
  {
    // See ENUM_PACKAGES: off where no enum can be met, on where one can.
    files: CODE,
    rules: { '@typescript-eslint/no-unsafe-enum-assignment': 'off' },
  },
  ...(ENUM_FILES.length
    ? [{ files: ENUM_FILES, rules: { '@typescript-eslint/no-unsafe-enum-assignment': 'error' } }]
    : []),
  {
    files: ['src/kernel/env.ts'],
    rules: { 'no-restricted-properties': 'off' },
  },
  {
    // Unit tests may reach inside modules (they test internals) and set TZ for the time-zone runs.
    files: ['src/**/*.test.ts'],
    rules: { 'import-x/no-restricted-paths': 'off', 'no-restricted-properties': 'off' },
  },
  {
    // Tests (test/): the same rules, three relaxed, each for a reason that holds only in a test.
    files: ['test/**'],
    rules: {
      // TestResponse.body (and the other JSON a test parses: bodies, tokens, webhook payloads) is `any`:
      // the test's own expect() asserts its shape, so typing it first would state each shape twice.
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // `x!` on a value the test itself just created or found: were it missing, the test fails there anyway.
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // Migrations take `Kysely<any>` (Kysely's own advice): a migration must not depend on today's table types.
    files: ['migrations/**'],
    rules: { '@typescript-eslint/no-explicit-any': 'off' },
  },
  {
    // Plain JavaScript (this file, scripts): no type information.
    files: ['**/*.js', '**/*.mjs', '**/*.cjs'],
    ...tseslint.configs.disableTypeChecked,
    languageOptions: {
      ...tseslint.configs.disableTypeChecked.languageOptions,
      globals: {
        URL: 'readonly',
        process: 'readonly',
        console: 'readonly',
        fetch: 'readonly',
        setTimeout: 'readonly',
        clearTimeout: 'readonly',
        AbortSignal: 'readonly',
      },
    },
  },
  {
    // The dashboard (React): typed against dashboard/tsconfig.json (the project service finds it),
    // the rules of hooks and exhaustive effect dependencies, and jsx-a11y's recommended rules.
    files: ['dashboard/**/*.ts', 'dashboard/**/*.tsx'],
    plugins: { 'react-hooks': reactHooks, 'jsx-a11y': jsxA11y.configs.recommended.plugins['jsx-a11y-x'] },
    rules: {
      ...reactHooks.configs.flat['recommended-latest'].rules,
      ...Object.fromEntries(
        Object.entries(jsxA11y.configs.recommended.rules).map(([rule, setting]) => [
          rule.replace(/^jsx-a11y-x\//, 'jsx-a11y/'),
          setting,
        ]),
      ),
      // A scrollable table wrapper (role="region" with a label) takes focus so a keyboard can scroll it (axe: scrollable-region-focusable).
      'jsx-a11y/no-noninteractive-tabindex': [
        'error',
        { tags: [], roles: ['tabpanel', 'region'], allowExpressionValues: true },
      ],
    },
  },
  {
    // The SDL (schema/*.graphql; docs/schema.md "SDL lint"): graphql-eslint's recommended schema
    // rules — naming conventions, no unreachable types, known types and directives — and a
    // description on every type, field, argument, enum value and directive.
    files: ['schema/*.graphql'],
    languageOptions: {
      parser: graphqlPlugin.parser,
      parserOptions: { graphQLConfig: { schema: ['schema/*.graphql', '!schema/released.graphql'] } },
    },
    plugins: { '@graphql-eslint': graphqlPlugin },
    rules: {
      ...graphqlPlugin.configs['flat/schema-recommended'].rules,
      '@graphql-eslint/naming-convention': [
        'error',
        {
          ...namingConventions,
          [`EnumTypeDefinition:not(${wireValueEnums.slice('EnumTypeDefinition'.length)}) > EnumValueDefinition`]:
            enumValueStyle,
          [`${wireValueEnums} > EnumValueDefinition`]: 'snake_case',
        },
      ],
      // Every type, field, argument, input field, enum value and directive says what it is for an
      // integrator (units, formats, time zones, scopes); docs/schema.md, "SDL lint".
      '@graphql-eslint/require-description': [
        'error',
        {
          types: true,
          rootField: true,
          FieldDefinition: true,
          InputValueDefinition: true,
          EnumValueDefinition: true,
          DirectiveDefinition: true,
        },
      ],
      // Both """block""" and "inline" descriptions are in use; the printed schema.graphql normalises them.
      '@graphql-eslint/description-style': 'off',
      // Payloads, pages, connections and value objects (a slot, a price quote) have no identity of their own.
      '@graphql-eslint/strict-id-in-types': [
        'error',
        {
          acceptedIdNames: ['id'],
          acceptedIdTypes: ['ID'],
          exceptions: {
            types: [
              'Slot',
              'NotificationSettings',
              'BookingPayment',
              'TenantSettings',
              'WeeklySchedule',
              'SpecialDate',
              'DeviceCommandEntry',
              'OAuthApp',
              'ConnectedApp',
              'AuditActor',
              'DoorSigningKey',
              'DoorOfflinePolicy',
              'PreviousBookingSlot',
              'WebhookSecretRotation',
              'HttpHeader',
              'AvailabilityRange',
              // A booking's manage link, keyed by its booking (bookingId), not cached as a node.
              'GuestLink',
              // A venue's booking page settings: one per tenant, keyed by the tenant; its texts belong to it.
              'BookingPageSettings',
              'BookingPageTexts',
              'BookingPageTextSet',
              // Subscription messages: identified by `eventId` (the events feed's id), not cached as nodes.
              'BookingChange',
              'DeviceStatusChange',
              'AccessDecision',
              // Reports (docs/reports.md): aggregates computed per request, rows of numbers, never cached as nodes.
              'ReportRange',
              'OccupancyCell',
              'ObjectOccupancy',
              'OccupancyReport',
              'RevenueRow',
              'ObjectRevenue',
              'RevenueTotal',
              'RevenueReport',
              'PaymentsRow',
              'PaymentsTotal',
              'PaymentsReport',
              'CashUpLine',
              'CashUpReport',
              'ObjectNoShows',
              'NoShowReport',
              // A proof-of-work challenge for one public booking: handed out and checked, never stored.
              'PublicBookingChallenge',
              // Whether a tenant's provider credentials are set (one per tenant and kind, keyed by them).
              'ProviderCredentialStatus',
              // A customer's totals per currency and a merge's answer: values of one customer, not nodes.
              'MoneyTotal',
              'CustomerMerge',
              // A series' planned occurrences before they are booked: keyed by their start, not cached.
              'BookingSeriesOccurrence',
              'BookingSeriesPreview',
            ],
            suffixes: [
              'Payload',
              'Connection',
              'Edge',
              'Page',
              'List',
              'Info',
              'Credentials',
              'Credential',
              'Quote',
              'Slots',
              'Hours',
              'Rules',
              'Telemetry',
              'Tier',
              'Adjustment',
              'Pagination',
              'Availability',
              'AvailabilityByObject',
              'Result',
              'Previous',
              'Attempt',
              'State',
            ],
          },
        },
      ],
    },
  },
);
