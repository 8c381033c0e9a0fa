import type { Logger } from 'pino';
import type { ApiKeyPrincipal } from '../auth/principal.js';
import { DomainError } from '../errors.js';

// Open subscriptions outlive the request that authorised them (docs/subscriptions.md, "When the
// credential ends"): every stream is watched here with its principal and the scopes it needs, and
// every LIVE_REVALIDATE_MS each credential with an open stream is read again from the database —
// so a revocation, sign-out, removed user or reduced scope made by any process ends the streams
// of every process sharing the database. The process that made the change also publishes a
// credential notice on the live transport (announceCredentialChange): every process re-checks at
// once, and the periodic check stays the bound when a notice is lost.

/** A credential as the database holds it now: the scopes it grants, or null when it no longer works. */
export type CredentialState = { scopes: readonly string[] } | null;

/** Reads the current state of each principal's credential (built by composeDeps; names the modules' tables). */
export type CredentialCheck = (principals: readonly ApiKeyPrincipal[]) => Promise<CredentialState[]>;

/** The credential behind a principal: the session, the OAuth grant or the API key. */
export function credentialKey(principal: ApiKeyPrincipal): string {
  if (principal.via?.type === 'session') return `session:${principal.via.sessionId}`;
  if (principal.via?.type === 'oauth') return `oauth:${principal.via.tokenHash ?? principal.via.grantId}`;
  return `key:${principal.keyId}`;
}

/** The end of a stream whose credential stopped working: the same words on SSE and WebSocket. */
export function credentialRevoked(): DomainError {
  return new DomainError('UNAUTHENTICATED', 'credential_revoked', 'credential revoked');
}

/** The end of a stream whose credential no longer holds the subscription's scope. */
export function scopeRevoked(needs: readonly string[]): DomainError {
  return new DomainError(
    'FORBIDDEN',
    'missing_scope',
    `credential no longer holds the scope ${needs.join(' + ')} this subscription needs`,
  );
}

interface Watched {
  principal: ApiKeyPrincipal;
  needs: readonly string[];
  end: (error: DomainError) => void;
}

export class StreamGuard {
  private readonly streams = new Map<string, Set<Watched>>();
  /** What the last check found of credentials that changed: a new stream of one is refused at once. */
  private readonly known = new Map<string, CredentialState>();
  private timer: ReturnType<typeof setInterval> | undefined;
  private running: Promise<void> | undefined;
  /** Tenants whose credentials a notice asked to re-check ('*': all), and the check that will. */
  private nudged: Set<string> | undefined;
  private nudging: Promise<void> | undefined;

  constructor(
    private readonly check: CredentialCheck,
    private readonly log: Logger,
    private readonly intervalMs: number,
  ) {}

  /** Why a stream of this principal needing `needs` may not open (as last checked), or undefined. */
  refusal(principal: ApiKeyPrincipal, needs: readonly string[]): DomainError | undefined {
    const key = credentialKey(principal);
    if (!this.known.has(key)) return undefined;
    return this.verdict(this.known.get(key) ?? null, needs);
  }

  /** Watches an open stream until the returned stop; `end` is called at most once. */
  watch(principal: ApiKeyPrincipal, needs: readonly string[], end: (error: DomainError) => void): () => void {
    const key = credentialKey(principal);
    let set = this.streams.get(key);
    if (!set) this.streams.set(key, (set = new Set()));
    const watched: Watched = { principal, needs, end };
    set.add(watched);
    this.timer ??= setInterval(() => void this.revalidate(), this.intervalMs);
    this.timer.unref?.();
    return () => {
      const current = this.streams.get(key);
      if (!current?.delete(watched)) return;
      if (current.size === 0) this.streams.delete(key);
      if (this.streams.size === 0) this.stopTimer();
    };
  }

  /** Open streams watched in this process. */
  get size(): number {
    let n = 0;
    for (const set of this.streams.values()) n += set.size;
    return n;
  }

  /**
   * Reads every watched credential again (or only those of `tenants`) and ends the streams it no
   * longer authorises. A check under way is joined.
   */
  revalidate(tenants?: ReadonlySet<string>): Promise<void> {
    this.running ??= this.run(tenants).finally(() => {
      this.running = undefined;
    });
    return this.running;
  }

  /**
   * A credential of `tenantId` ('*': of any tenant) changed, committed: its streams are re-checked
   * now rather than at the next round. The check starts after any under way (which may have read
   * before the change); notices that arrive meanwhile share it.
   */
  nudge(tenantId: string): Promise<void> {
    if (this.streams.size === 0) return Promise.resolve();
    (this.nudged ??= new Set()).add(tenantId);
    this.nudging ??= (this.running ?? Promise.resolve()).then(() => {
      const tenants = this.nudged;
      this.nudged = this.nudging = undefined;
      return this.revalidate(tenants?.has('*') ? undefined : tenants);
    });
    return this.nudging;
  }

  close(): void {
    this.stopTimer();
    this.streams.clear();
  }

  private stopTimer(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }

  private verdict(state: CredentialState, needs: readonly string[]): DomainError | undefined {
    if (!state) return credentialRevoked();
    if (!needs.every((scope) => state.scopes.includes(scope))) return scopeRevoked(needs);
    return undefined;
  }

  private async run(tenants?: ReadonlySet<string>): Promise<void> {
    const keys = [...this.streams.keys()];
    const principals = keys.flatMap((key) => {
      const first = this.streams.get(key)?.values().next();
      if (!first || first.done) return [];
      return !tenants || tenants.has(first.value.principal.tenantId) ? [first.value.principal] : [];
    });
    if (!principals.length) return;
    let states: CredentialState[];
    try {
      states = await this.check(principals);
    } catch (error) {
      // A database hiccup must not end every stream: the next round checks again.
      this.log.warn({ err: error }, 'open subscriptions’ credentials could not be checked');
      return;
    }
    principals.forEach((principal, i) => {
      const key = credentialKey(principal);
      const state = states[i] ?? null;
      const held = new Set(principal.scopes);
      const changed =
        !state || principal.scopes.some((s) => !state.scopes.includes(s)) || state.scopes.some((s) => !held.has(s));
      if (changed) this.known.set(key, state);
      else this.known.delete(key);
      for (const watched of [...(this.streams.get(key) ?? [])]) {
        const error = this.verdict(state, watched.needs);
        if (error) watched.end(error);
      }
    });
  }
}
