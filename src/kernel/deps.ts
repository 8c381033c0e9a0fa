import type { Logger } from 'pino';
import type { Database } from './db/database.js';
import type { Env } from './env.js';
import type { ServerSecret } from './crypto.js';
import type { GuessLimits } from './limits/index.js';
import type { Metrics } from './metrics.js';
import type { Tracing } from './tracing.js';
import type { FastifyInstance } from 'fastify';
import type { Kysely, Transaction } from 'kysely';
import type { AuditLogRow, DB } from './db/types.js';

/** What a process starts from: configuration, the database, the secret, the logger and the clock. */
export interface BaseDeps {
  database: Database;
  env: Env;
  secret: ServerSecret;
  log: Logger;
  /** Guessing limiters (SMS codes, activation codes), shared through Redis when REDIS_URL is set. */
  limits: GuessLimits;
  /** The current time; tests inject their own clock. */
  now: () => Date;
  /** The process's Prometheus registry (built once by the runtime); absent, nothing is measured. */
  metrics?: Metrics;
  /** OpenTelemetry traces (built once by the runtime when OTEL_EXPORTER_OTLP_ENDPOINT is set); absent, nothing is traced. */
  tracing?: Tracing;
}

/**
 * The long-lived collaborators, built once by composeDeps (src/app/deps.ts; never on first use by a
 * module). Each module adds the ones it owns to this interface (TypeScript declaration merging in its
 * own files: `declare module '../../kernel/deps.js' { interface Collaborators { … } }`), so the kernel
 * names no module class and no import points upward.
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the modules' declarations
export interface Collaborators {}

/**
 * The per-request DataLoaders (ctx.loaders). Each module adds its own the same way
 * (`declare module '../../kernel/deps.js' { interface Loaders { … } }`).
 */
// eslint-disable-next-line @typescript-eslint/no-empty-object-type -- filled by the modules' declarations
export interface Loaders {}

/** What the composition root assembles from the module list (src/app/modules.ts). */
export interface Assembled {
  /** Every module, in the list's order; transport loops over it (resolvers, routes, import sections). */
  modules: readonly PortierModule[];
  /** One request's loaders: every module's, merged. */
  createLoaders(db: Kysely<DB>): Loaders;
}

/** What the composition root hands to every entry point: no module reads globals or keeps singletons. */
export interface AppDeps extends BaseDeps, Collaborators, Assembled {}

/** Catalog file sections, in the order they load (later sections refer to earlier keys). */
export const IMPORT_SECTIONS = [
  'accommodations',
  'doors',
  'devices',
  'pricingRules',
  'cancellationPolicies',
  'bookings',
] as const;
export type ImportSection = (typeof IMPORT_SECTIONS)[number];

export type ImportResult = {
  accommodations: Record<string, string>;
  objects: Record<string, string>;
  doors: Record<string, string>;
  devices: Record<string, { deviceId: string; activationCode: string }>;
  bookings: Record<string, string>;
  pricingRules: Record<string, string>;
  cancellationPolicies: Record<string, string>;
};

export interface ImportContext {
  trx: Transaction<DB>;
  deps: AppDeps;
  tenantId: string;
  result: ImportResult;
  /** Who loads the file: the audit entries of what it creates name them (the command line). */
  actor: { type: AuditLogRow['actor_type']; id: string | null; label: string };
}

export type SectionImporter = (ctx: ImportContext, value: unknown) => Promise<void>;

/** A background job started with the server (and stopped on shutdown), e.g. the webhook dispatcher. */
export interface ModuleJob {
  name: string;
  start(deps: AppDeps): { stop(): Promise<void> | void };
}

/**
 * A module as one value (src/modules/<m>/index.ts exports `defineModule({...})`, src/kernel/module.ts).
 * The application layer's list (src/app/modules.ts) names every module; resolvers, loaders, import
 * sections, routes and jobs are assembled by looping over it.
 */
export interface PortierModule {
  /** The folder name under src/modules. */
  name: string;
  /** The modules this one imports (through their index.ts); ESLint allows exactly these. */
  dependsOn: readonly string[];
  /** Its SDL files under schema/ (documentation: the schema is built from every file there). */
  typeDefs?: readonly string[];
  /** Its GraphQL resolvers (typed with the generated Resolvers in the module). */
  resolvers?: object;
  /** Its per-request DataLoaders. */
  loaders?: (db: Kysely<DB>) => object;
  /** Its hand-written HTTP routes, registered as an encapsulated Fastify plugin. */
  routes?: (fastify: FastifyInstance, deps: AppDeps) => void | Promise<void>;
  /** The catalog file sections it imports. */
  importSections?: Partial<Record<ImportSection, SectionImporter>>;
  /** Background jobs started with the server. */
  jobs?: readonly ModuleJob[];
}
