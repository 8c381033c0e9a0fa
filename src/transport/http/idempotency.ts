import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { AppDeps } from '../../kernel/deps.js';
import { DomainError, conflict, invalidField } from '../../kernel/errors.js';
import { GRAPHQL_PATH } from '../graphql/yoga.js';
import { PRICE_PREVIEW_PATH } from '../../modules/bookings/index.js';
import {
  IDEMPOTENCY_HEADER,
  REPLAYED_HEADER,
  fingerprint,
  isMutation,
  keyProblem,
  replayableHeaders,
  storesAnswer,
  takesKey,
} from './idempotency.rules.js';
import {
  ANSWER_SEAL_INFO,
  claimKey,
  pruneKeys,
  releaseKey,
  sealPlainAnswers,
  storeAnswer,
  type KeyRef,
} from './idempotency.store.js';

// Idempotency keys at the HTTP edge (docs/idempotency.md), one layer for every write route however
// it is dispatched: REST POST/PATCH under /api/v1, the price preview and GraphQL mutations. The key
// is taken after authentication and body parsing (preValidation) and the answer is kept as it
// leaves (onSend), before the client can see it: a retry after an answer is always its replay.

const PRUNE_EVERY_MS = 60_000;

interface IdempotencyState {
  ref: KeyRef;
  /** The answer was kept or the key released (or this request is a replay or a refusal). */
  settled: boolean;
}

declare module 'fastify' {
  interface FastifyRequest {
    idempotency: IdempotencyState | null;
  }
}

export function registerIdempotency(app: FastifyInstance, deps: AppDeps): void {
  const db = deps.database.db;
  const sealer = deps.secret.sealerFor(ANSWER_SEAL_INFO);
  // Answers kept by an older version, before they were sealed.
  sealPlainAnswers(db, sealer)
    .then(
      (count) =>
        count > 0 && deps.log.info({ count }, 'sealed idempotent answers kept in plain text by an older version'),
    )
    .catch((error: unknown) => deps.log.warn({ err: error }, 'sealing older idempotent answers failed'));
  let lastPrune = 0;
  const prune = (now: Date) => {
    // Either way: a clock set back (an NTP step, a test's clock) must not stop pruning until it
    // catches up with the last prune.
    if (Math.abs(now.getTime() - lastPrune) < PRUNE_EVERY_MS) return;
    lastPrune = now.getTime();
    pruneKeys(db, now).catch((error: unknown) => deps.log.warn({ err: error }, 'pruning idempotency keys failed'));
  };

  app.decorateRequest('idempotency', null);

  app.addHook('preValidation', async (req: FastifyRequest, reply: FastifyReply) => {
    if (!takesKey(req.method, req.routeOptions.url, PRICE_PREVIEW_PATH)) return;
    const header = req.headers[IDEMPOTENCY_HEADER];
    const problem = keyProblem(header);
    if (problem) throw invalidField('Idempotency-Key', problem, 'invalid_idempotency_key');
    if (typeof header !== 'string') return;
    const principal = req.principal;
    if (principal?.kind !== 'apiKey') return;
    if (req.routeOptions.url === GRAPHQL_PATH && !isMutation(req.body)) return;

    const now = deps.now();
    prune(now);
    const ref: KeyRef = {
      tenantId: principal.tenantId,
      credential: principal.keyId,
      key: header,
      fingerprint: fingerprint(req.method, req.url, req.body),
    };
    const claim = await claimKey(db, sealer, ref, now);
    switch (claim.kind) {
      case 'run':
        req.idempotency = { ref, settled: false };
        return;
      case 'reused':
        throw new DomainError(
          'UNPROCESSABLE',
          'idempotency_key_reused',
          'This Idempotency-Key was used with a different request (method, path or body) in the last 24 hours',
        );
      case 'unreadable':
        throw conflict(
          'idempotency_answer_unavailable',
          'This request already ran under this Idempotency-Key, but its answer was sealed under another server secret (PORTIER_SECRET) and cannot be given again; check its effect before sending it with a new key',
        );
      case 'in_progress':
        throw conflict(
          'idempotency_key_in_progress',
          'A request with this Idempotency-Key is still running; retry once it has finished',
        );
      case 'replay': {
        const { answer } = claim;
        req.idempotency = { ref, settled: true };
        return reply
          .status(answer.statusCode)
          .headers(answer.headers)
          .header(REPLAYED_HEADER, 'true')
          .send(answer.body);
      }
    }
  });

  app.addHook('onSend', async (req, reply, payload) => {
    const state = req.idempotency;
    if (!state || state.settled) return payload;
    state.settled = true;
    const body = typeof payload === 'string' ? payload : Buffer.isBuffer(payload) ? payload.toString('utf8') : null;
    try {
      if (body !== null && storesAnswer(reply.statusCode, body)) {
        await storeAnswer(db, sealer, state.ref, {
          statusCode: reply.statusCode,
          headers: replayableHeaders(reply.getHeaders()),
          body,
        });
      } else {
        await releaseKey(db, state.ref);
      }
    } catch (error) {
      // The key stays running until its lease ends; then a retry runs again.
      req.log.error({ err: error }, 'keeping the idempotent answer failed');
    }
    return payload;
  });
}
