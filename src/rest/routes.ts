import type { Scope } from '../auth/scopes.js';

/**
 * The documented REST routes, each bridged by SOFA to one root field. Paths are relative to
 * /api/v1; `:name` fills the field's argument of that name. Only these routes are reachable:
 * the HTTP host registers exactly this table, although SOFA itself would expose every root field.
 */
export interface RestRoute {
  field: `${'Query' | 'Mutation'}.${string}`;
  method: 'GET' | 'POST' | 'PATCH' | 'PUT' | 'DELETE';
  path: string;
  status?: 200 | 201 | 202 | 204;
  /**
   * A scope the field requires (its @requiresScopes is the source of truth; a test checks the two
   * agree). The OpenAPI document and the security sweep read the directive itself.
   */
  scope?: Scope;
  summary: string;
}

export const REST_ROUTES: RestRoute[] = [
  { field: 'Query.openingHours', method: 'GET', path: '/tenants/:tenantId/objects/:objectId/opening-hours', scope: 'catalog:read', summary: 'Weekly schedule and special dates of an object' },
  { field: 'Query.bookingRules', method: 'GET', path: '/tenants/:tenantId/objects/:objectId/booking-rules', scope: 'catalog:read', summary: 'Booking rules of an object' },
];

export function sofaRoutes(routes: RestRoute[] = REST_ROUTES) {
  return Object.fromEntries(
    routes.map((r) => [r.field, { method: r.method, path: r.path, responseStatus: r.status ?? 200, description: r.summary } as const]),
  );
}
