import type { Kysely } from 'kysely';
import type { DB } from '../../kernel/db/types.js';
import type { Executor } from '../../kernel/db/index.js';
import type { Sealer } from '../../kernel/crypto.js';
import type { MailEnv, SmsEnv } from '../../kernel/env.js';
import type { PaymentProvider, StripeSettings } from '../payments/index.js';
import type { Mailer, SmsClient } from '../notifications/index.js';
import { credentialOf, credentialStamp } from './credentials.repository.js';
import type { ProviderKind, StoredByKind, StoredSmtp, StoredSms, StoredStripe } from './credentials.rules.js';

// Which payment provider, mail transport and SMS sender a tenant's sends use, decided at send time
// (docs/payments.md, "Credentials in the dashboard"): the environment's when it sets one (it wins),
// else one built from the tenant's stored credentials — lazily, on first use, and kept per tenant.
// A change through this process drops the tenant's entry at once (invalidate); other processes
// notice within RECHECK_MS, when a cached entry's row is looked at again (one indexed read).

export const RECHECK_MS = 5_000;
/** Past this many tenants the kinds cache starts over (a bound on memory, not a working set). */
const MAX_CACHED_TENANTS = 10_000;

export interface ProviderFactories {
  stripe(settings: StripeSettings): PaymentProvider;
  mailer(env: MailEnv): Mailer;
  sms(env: SmsEnv): SmsClient;
}

type Built = { stripe: PaymentProvider; smtp: Mailer; sms: SmsClient };

interface Entry<K extends ProviderKind> {
  value: Built[K] | null;
  stamp: number | null;
  checkedAt: number;
}

/** The sealer's associated data: a sealed value opens only as the tenant's credentials of its kind. */
export const sealContext = (tenantId: string, kind: ProviderKind) => `provider-credentials:${tenantId}:${kind}`;

export class TenantProviders {
  private readonly cache = new Map<string, Entry<ProviderKind>>();
  /** storedKinds' answers per tenant, kept RECHECK_MS (dropped by invalidate). */
  private readonly kinds = new Map<string, { kinds: Set<ProviderKind>; checkedAt: number }>();
  /** Each tenant's mode once read (it never changes): a sandbox never uses the environment's Stripe keys. */
  private readonly modes = new Map<string, boolean>();
  /** Bumped by invalidate: a read begun under an older generation does not store its answer. */
  private readonly generations = new Map<string, number>();

  constructor(
    private readonly db: Kysely<DB>,
    private readonly sealer: Sealer,
    /** The environment's providers (read at each use); one that is set wins. */
    private readonly fromEnvironment: () => {
      stripe: PaymentProvider | null;
      smtp: Mailer | null;
      sms: SmsClient | null;
    },
    private readonly factories: ProviderFactories,
    private readonly clock: () => number = Date.now,
  ) {}

  /** The tenant's payment provider: the environment's (STRIPE_SECRET_KEY), else its stored Stripe keys, else null. */
  payment(tenantId: string): Promise<PaymentProvider | null> {
    return this.get(tenantId, 'stripe');
  }

  /** The tenant's mail transport: the environment's (SMTP_URL), else its stored SMTP settings, else null. */
  mailer(tenantId: string): Promise<Mailer | null> {
    return this.get(tenantId, 'smtp');
  }

  /** The tenant's SMS sender: the environment's (SMS_ACCOUNT_SID), else its stored SMS settings, else null. */
  sms(tenantId: string): Promise<SmsClient | null> {
    return this.get(tenantId, 'sms');
  }

  /**
   * Whether the tenant has a provider of `kind` (the environment's, or stored credentials), read
   * through `db` — the caller's transaction when one is open (PGlite has one connection).
   */
  async configured(db: Executor, tenantId: string, kind: ProviderKind): Promise<boolean> {
    if (this.fromEnvironment()[kind] && (await this.environmentApplies(db, tenantId, kind))) return true;
    return (await credentialStamp(db, tenantId, kind)) !== undefined;
  }

  /**
   * Which kinds the tenant has stored credentials of: one read through `db` (the caller's
   * transaction when one is open: PGlite has one connection), then kept RECHECK_MS, as the built
   * providers are, so a booking's transaction does not read it each time.
   */
  async storedKinds(db: Executor, tenantId: string): Promise<Set<ProviderKind>> {
    const now = this.clock();
    const cached = this.kinds.get(tenantId);
    if (cached && now - cached.checkedAt < RECHECK_MS) return cached.kinds;
    const generation = this.generationOf(tenantId);
    const rows = await db.selectFrom('provider_credentials').select('kind').where('tenant_id', '=', tenantId).execute();
    const kinds = new Set(rows.map((r) => r.kind));
    if (this.generationOf(tenantId) !== generation) return kinds;
    if (this.kinds.size > MAX_CACHED_TENANTS) this.kinds.clear();
    this.kinds.set(tenantId, { kinds, checkedAt: now });
    return kinds;
  }

  /** Forgets what was built for the tenant (after its credentials changed here). */
  invalidate(tenantId: string, kind?: ProviderKind): void {
    // A read that began before the change (its row the old one) must not store its answer after this.
    this.generations.set(tenantId, this.generationOf(tenantId) + 1);
    this.kinds.delete(tenantId);
    for (const k of kind ? [kind] : (['stripe', 'smtp', 'sms'] as const)) this.drop(tenantId, k);
  }

  private generationOf(tenantId: string): number {
    return this.generations.get(tenantId) ?? 0;
  }

  private drop(tenantId: string, kind: ProviderKind): void {
    const key = `${tenantId}|${kind}`;
    const entry = this.cache.get(key);
    if (entry?.value && kind === 'smtp') (entry.value as Mailer).close();
    this.cache.delete(key);
  }

  /** Closes every mail transport built here (shutdown). */
  close(): void {
    for (const [key, entry] of this.cache) if (key.endsWith('|smtp') && entry.value) (entry.value as Mailer).close();
    this.cache.clear();
    this.kinds.clear();
  }

  private async get<K extends ProviderKind>(tenantId: string, kind: K): Promise<Built[K] | null> {
    const own = this.fromEnvironment()[kind] as Built[K] | null;
    if (own && (await this.environmentApplies(this.db, tenantId, kind))) return own;
    const key = `${tenantId}|${kind}`;
    const now = this.clock();
    const cached = this.cache.get(key) as Entry<K> | undefined;
    if (cached && now - cached.checkedAt < RECHECK_MS) return cached.value;
    if (cached) {
      const stamp = (await credentialStamp(this.db, tenantId, kind))?.getTime() ?? null;
      if (stamp === cached.stamp) {
        cached.checkedAt = now;
        return cached.value;
      }
    }
    const generation = this.generationOf(tenantId);
    const row = await credentialOf(this.db, tenantId, kind);
    const plain = row ? this.sealer.open(row.sealed, sealContext(tenantId, kind)) : null;
    const value = plain ? this.build(kind, JSON.parse(plain) as StoredByKind[K]) : null;
    // Changed meanwhile (invalidate ran): this answer may be the old row's; the next use reads again.
    if (this.generationOf(tenantId) !== generation) return value;
    this.drop(tenantId, kind);
    this.cache.set(key, { value, stamp: row?.updated_at.getTime() ?? null, checkedAt: now });
    return value;
  }

  /**
   * Whether the environment's provider of `kind` serves the tenant: always, but for Stripe in a
   * sandbox (test mode, docs/test-mode.md), which uses only its own stored test keys.
   */
  private async environmentApplies(db: Executor, tenantId: string, kind: ProviderKind): Promise<boolean> {
    if (kind !== 'stripe') return true;
    let livemode = this.modes.get(tenantId);
    if (livemode === undefined) {
      const row = await db.selectFrom('tenants').select('livemode').where('id', '=', tenantId).executeTakeFirst();
      livemode = row?.livemode ?? true;
      if (this.modes.size > MAX_CACHED_TENANTS) this.modes.clear();
      this.modes.set(tenantId, livemode);
    }
    return livemode;
  }

  private build<K extends ProviderKind>(kind: K, stored: StoredByKind[K]): Built[K] {
    if (kind === 'stripe') {
      const s = stored as StoredStripe;
      return this.factories.stripe({
        secretKey: s.secretKey,
        webhookSecret: s.webhookSecret,
        apiBase: s.apiBase ? new URL(s.apiBase) : undefined,
      }) as Built[K];
    }
    if (kind === 'smtp') {
      const s = stored as StoredSmtp;
      return this.factories.mailer({ smtpUrl: s.smtpUrl, from: s.from, timeoutMs: 30_000 }) as Built[K];
    }
    return this.factories.sms(stored as StoredSms) as Built[K];
  }
}
