import { PRICE_PREVIEW_PATH } from '../../modules/bookings/index.js';
import { takesKey } from '../http/idempotency.rules.js';

// The Idempotency-Key header (docs/idempotency.md) on every operation that takes it.

const PROBLEM = { 'application/problem+json': { schema: { $ref: '#/components/schemas/Problem' } } };

interface Keyable {
  parameters?: object[];
  responses: Record<string, unknown>;
}

export function withIdempotencyKey<O extends Keyable>(method: string, url: string, operation: O): O {
  if (!takesKey(method, url, PRICE_PREVIEW_PATH)) return operation;
  return {
    ...operation,
    parameters: [
      ...(operation.parameters ?? []),
      {
        name: 'Idempotency-Key',
        in: 'header',
        required: false,
        description:
          '1–255 printable ASCII characters. A repeat of the same request with the same key (per credential, within 24 h) gets the first answer again with `Idempotent-Replayed: true`; on GraphQL only mutations take a key. See docs/idempotency.md.',
        schema: { type: 'string', minLength: 1, maxLength: 255 },
      },
    ],
    responses: {
      ...operation.responses,
      409: {
        description:
          'A conflict; also `idempotency_key_in_progress`: the first request with this Idempotency-Key is still running.',
        content: PROBLEM,
      },
      422: {
        description:
          '`idempotency_key_reused`: this Idempotency-Key was used with a different request in the last 24 hours.',
        content: PROBLEM,
      },
    },
  };
}
