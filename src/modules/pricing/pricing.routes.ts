import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { requireScope } from '../../auth/principal.js';
import type { AppDeps } from '../../deps.js';
import { previewPrice, type PreviewInput } from './preview.js';

export const PRICE_PREVIEW_PATH = '/api/pricing/preview';

/** The scope the preview requires: it reveals prices and pricing rules, not bookings. */
export const PREVIEW_SCOPE = 'pricing:read';

const PreviewBody = Type.Object(
  {
    objectId: Type.String({ format: 'uuid' }),
    startTime: Type.String({ format: 'date-time' }),
    endTime: Type.String({ format: 'date-time' }),
  },
  { additionalProperties: false },
);

const PreviewResult = Type.Object({
  basePrice: Type.Integer(),
  adjustments: Type.Array(Type.Object({ rule: Type.String(), amount: Type.Integer() })),
  totalPrice: Type.Integer(),
  currency: Type.Literal('EUR'),
  breakdown: Type.String(),
});

/** The hand-written, unversioned price preview: POST /api/pricing/preview with an API key. */
export function registerPricingRoutes(app: FastifyInstance, deps: AppDeps): void {
  app.route({
    method: 'POST',
    url: PRICE_PREVIEW_PATH,
    config: { auth: 'apiKey' },
    schema: { body: PreviewBody, response: { 200: PreviewResult } },
    // The scope is checked before the body, so a key without it learns nothing from validation.
    preValidation: async (req) => {
      requireScope(req.principal, PREVIEW_SCOPE);
    },
    handler: async (req) => {
      const key = requireScope(req.principal, PREVIEW_SCOPE);
      return previewPrice(deps.database.db, key.tenantId, req.body as PreviewInput, deps.now());
    },
  });
}
