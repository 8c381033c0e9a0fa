import { Type } from '@sinclair/typebox';
import type { FastifyInstance } from 'fastify';
import { requireScope } from '../../kernel/auth/principal.js';
import type { AppDeps } from '../../kernel/deps.js';
import type { Scope } from '../../kernel/auth/scopes.js';
import { previewPrice } from './price-preview.js';
import { parsePricePreview } from './bookings.commands.js';
import { problemResponse } from '../../kernel/problem-schema.js';
import { named } from '../../kernel/openapi-names.js';

export const PRICE_PREVIEW_PATH = '/api/pricing/preview';

/** The scope the preview requires: it reveals prices and pricing rules, not bookings. */
export const PREVIEW_SCOPE: Scope = 'pricing:read';

// Example times (a Monday morning) so generated requests (docs, the security sweep) pass the
// field checks; objectId is the caller's own.
const PreviewBody = named(
  'PricePreviewRequest',
  Type.Object(
    {
      objectId: Type.String({ format: 'uuid', description: 'A bookable object of the key’s tenant.' }),
      startTime: Type.String({ format: 'date-time', examples: ['2030-01-07T10:00:00Z'] }),
      endTime: Type.String({
        format: 'date-time',
        description: 'Later than startTime.',
        examples: ['2030-01-07T11:00:00Z'],
      }),
    },
    { additionalProperties: false },
  ),
);

const PreviewResult = named(
  'PricePreview',
  Type.Object(
    {
      basePrice: Type.Integer({ description: 'Cents: price per hour × duration.' }),
      adjustments: Type.Array(
        named(
          'PriceAdjustment',
          Type.Object({
            rule: Type.String({ description: 'The pricing rule’s name.' }),
            amount: Type.Integer({ description: 'Cents; negative for a discount.' }),
          }),
        ),
        {
          description: 'One entry per applied pricing rule.',
        },
      ),
      totalPrice: Type.Integer({ description: 'Cents: basePrice plus the adjustments, at least 0.' }),
      currency: Type.Literal('EUR'),
      breakdown: Type.String({
        description: 'Human-readable, e.g. "2 h × €20.00 = €40.00; Evening peak +€5.00; Total €45.00".',
      }),
    },
    { description: 'What a booking of this object and time range, made now, would cost.' },
  ),
);

/** The hand-written, unversioned price preview: POST /api/pricing/preview with an API key. */
export function registerPricePreviewRoute(app: FastifyInstance, deps: AppDeps): void {
  app.route({
    method: 'POST',
    url: PRICE_PREVIEW_PATH,
    // The scope is checked when the request arrives (src/transport/http/auth.ts), before the body, so a key
    // without it learns nothing from validation.
    config: { auth: 'apiKey', scope: PREVIEW_SCOPE },
    schema: {
      operationId: 'previewPrice',
      summary: 'Preview the price of a booking without creating it',
      description:
        'Applies every active pricing rule and the booking rules of creation (opening hours, durations, advance limits: 400 with the same codes as creating the booking).',
      tags: ['pricing'],
      body: PreviewBody,
      response: {
        200: PreviewResult,
        404: problemResponse('No such object in the key’s tenant (another tenant’s objects are not found either).'),
      },
    },
    handler: async (req) => {
      const key = requireScope(req.principal, PREVIEW_SCOPE);
      return previewPrice(deps.database.db, key.tenantId, parsePricePreview(req.body), deps.now());
    },
  });
}
