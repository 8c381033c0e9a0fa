import type { Executor } from '../../kernel/db/index.js';
import type { AppDeps } from '../../kernel/deps.js';
import { providerSettingsParsers } from '../../kernel/env.js';
import { invalid } from '../../kernel/errors.js';
import { credentialsOf, deleteCredential, storeCredential } from './credentials.repository.js';
import {
  environmentSets,
  fieldErrorOf,
  hintOf,
  isStripeTestKey,
  type ProviderKind,
  type StoredByKind,
} from './credentials.rules.js';
import { sealContext } from './tenant-providers.js';
import type { CredentialStatusView, CredentialsView } from './views.js';

// A venue's Stripe, SMTP and SMS credentials (docs/payments.md, "Credentials in the dashboard"):
// checked as the environment's are, sealed with the server secret, never shown again.

export const SEAL_INFO = 'provider-credentials';

export type { CredentialStatusView, CredentialsView } from './views.js';

/** `livemode` false (a sandbox, docs/test-mode.md): the environment's Stripe keys never apply. */
export async function credentialsView(
  db: Executor,
  deps: AppDeps,
  tenantId: string,
  livemode = true,
): Promise<CredentialsView> {
  const rows = new Map((await credentialsOf(db, tenantId)).map((r) => [r.kind, r]));
  const statusOf = (kind: ProviderKind): CredentialStatusView => {
    const row = rows.get(kind);
    return {
      set: Boolean(row),
      hint: row?.hint ?? null,
      source:
        (livemode || kind !== 'stripe') && environmentSets(deps.env, kind) ? 'ENVIRONMENT' : row ? 'DASHBOARD' : 'NONE',
      updatedAt: row?.updated_at ?? null,
    };
  };
  return { tenantId, stripe: statusOf('stripe'), smtp: statusOf('smtp'), sms: statusOf('sms') };
}

/** A base URL the input names is for tests and development only: else the provider's own host. */
function baseAllowed(deps: AppDeps, given: string | null | undefined, field: string) {
  if (given == null || given === '' || deps.env.webhookAllowPrivateNetworks) return;
  throw invalid([
    {
      field,
      message:
        'may be set only on installations that allow private networks (WEBHOOK_ALLOW_PRIVATE_NETWORKS, for tests and development): leave it out to use the provider’s own address',
    },
  ]);
}

const trimmed = (value: string | null | undefined) => (value ?? '').trim();

/** Checks a kind's input as the environment's variables of the same meaning are checked; the stored form. */
export function parseCredentials<K extends ProviderKind>(
  deps: AppDeps,
  kind: K,
  input: Record<string, string | null | undefined>,
  /** False for a sandbox tenant (test mode), which takes Stripe test keys only. */
  livemode = true,
): StoredByKind[K] {
  const required = (fields: string[]) => {
    const missing = fields.filter((f) => trimmed(input[f]) === '');
    if (missing.length) throw invalid(missing.map((field) => ({ field, message: 'is required' })));
  };
  const parse = <T>(run: () => T): T => {
    try {
      return run();
    } catch (error) {
      throw invalid([fieldErrorOf((error as Error).message, 'input')]);
    }
  };
  if (kind === 'stripe') {
    required(['secretKey', 'webhookSecret']);
    const secretKey = trimmed(input.secretKey);
    const webhookSecret = trimmed(input.webhookSecret);
    const problems = [];
    if (!/^(sk|rk)_(test|live)_[A-Za-z0-9]{8,}$/.test(secretKey))
      problems.push({
        field: 'secretKey',
        message: 'must be a Stripe secret or restricted key (sk_live_…, sk_test_…, rk_…)',
      });
    else if (!livemode && !isStripeTestKey(secretKey))
      problems.push({
        field: 'secretKey',
        message: 'must be a Stripe test key (sk_test_…, rk_test_…): this is a test-mode tenant (docs/test-mode.md)',
      });
    if (!/^whsec_[A-Za-z0-9+/=_-]{8,}$/.test(webhookSecret))
      problems.push({ field: 'webhookSecret', message: 'must be the webhook endpoint’s signing secret (whsec_…)' });
    if (problems.length) throw invalid(problems);
    baseAllowed(deps, input.apiBase, 'apiBase');
    const parsed = parse(() =>
      providerSettingsParsers.stripe({
        STRIPE_SECRET_KEY: secretKey,
        STRIPE_WEBHOOK_SECRET: webhookSecret,
        STRIPE_API_BASE: trimmed(input.apiBase) || undefined,
      }),
    );
    return { secretKey, webhookSecret, apiBase: parsed?.apiBase?.origin ?? null } as StoredByKind[K];
  }
  if (kind === 'smtp') {
    required(['smtpUrl', 'from']);
    const parsed = parse(() =>
      providerSettingsParsers.mail({ SMTP_URL: trimmed(input.smtpUrl), MAIL_FROM: trimmed(input.from) }),
    );
    if (!parsed) throw invalid([{ field: 'smtpUrl', message: 'is required' }]);
    return { smtpUrl: parsed.smtpUrl, from: parsed.from } as StoredByKind[K];
  }
  required(['accountSid', 'authToken', 'from']);
  baseAllowed(deps, input.apiBase, 'apiBase');
  const parsed = parse(() =>
    providerSettingsParsers.sms({
      SMS_ACCOUNT_SID: trimmed(input.accountSid),
      SMS_AUTH_TOKEN: trimmed(input.authToken),
      SMS_FROM: trimmed(input.from),
      SMS_API_BASE: trimmed(input.apiBase) || undefined,
    }),
  );
  return parsed as StoredByKind[K];
}

/** Stores the tenant's credentials of `kind`, sealed; answers whether some were replaced and the hint. */
export async function setCredentials<K extends ProviderKind>(
  trx: Executor,
  deps: AppDeps,
  tenantId: string,
  kind: K,
  stored: StoredByKind[K],
): Promise<{ replaced: boolean; hint: string }> {
  const sealer = deps.secret.sealerFor(SEAL_INFO);
  const hint = hintOf(kind, stored);
  const previous = await storeCredential(trx, {
    tenantId,
    kind,
    sealed: sealer.seal(JSON.stringify(stored), sealContext(tenantId, kind)),
    hint,
    now: deps.now(),
  });
  return { replaced: Boolean(previous), hint };
}

export async function clearCredentials(trx: Executor, tenantId: string, kind: ProviderKind): Promise<boolean> {
  return deleteCredential(trx, tenantId, kind);
}
