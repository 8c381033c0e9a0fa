import type { JsonSchema } from './openapi-registry.js';

// Examples for the OpenAPI document: every request body and every success body carries one
// (docs/openapi.md, "Examples"; test/openapi.test.ts requires them and checks each against its
// schema). A route may give its own (RouteDoc.bodyExample, ResponseDoc.example, EXAMPLES below);
// otherwise one is made from the schema: a schema's own `examples`, `default`, `const` or first
// enum value, else a plausible value chosen by format and property name.

const UUIDS: Record<string, string> = {
  id: '3f6c2a1e-8b4d-4c7a-9e21-5d0b7f3a9c64',
  tenantId: '0b9e6d2c-4f1a-4e8b-a7c3-2d5f8e1b6a90',
  objectId: '7a1d3e5f-2b4c-4d6e-8f0a-1b3c5d7e9f20',
  bookingId: '5c8e2f4a-6b1d-4a3c-9e7f-0d2b4c6e8a13',
  webhookId: '9d4b6f8a-1c3e-4b5d-8a7c-2e4f6a8c0b35',
  deviceId: 'e2a4c6e8-0b1d-4f3a-9c5e-7a9b1d3f5e46',
  doorId: 'c1e3a5c7-9d0f-4b2d-8e4a-6c8e0a2c4e57',
  eventId: 'f4b6d8f0-2a4c-4e6a-8c0e-4a6c8e0a2c68',
  commandId: 'a8c0e2a4-6c8e-4a0c-9e2a-8c0e2a4c6e79',
  accommodationId: 'b5d7f9b1-3d5f-4f7b-9d1f-5b7d9f1b3d8a',
};
const FALLBACK_UUID = '2d4f6b8d-0f2b-4d6f-8b0d-2f4b6d8f0b9c';

const STRINGS: Record<string, string> = {
  guestName: 'Ada Lovelace',
  guestPhone: '+442071234567',
  name: 'Lakeside cabin',
  objectName: 'Lakeside cabin',
  currency: 'EUR',
  timeZone: 'Europe/Berlin',
  reason: 'guest_request',
  message: 'Test event from Portier',
  secret: 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw',
  query: 'query Bookings { bookingPage(pageSize: 5) { bookings { id status } } }',
  operationName: 'Bookings',
  title: 'Lakeside cabin',
  email: 'ada@example.org',
  password: 'correct horse battery staple',
  role: 'admin',
  status: 'CONFIRMED',
  type: 'unlock',
};

const FORMATS: Record<string, string> = {
  'date-time': '2026-12-04T14:00:00.000Z',
  date: '2026-12-04',
  email: 'ada@example.org',
  uri: 'https://app.example.org/hooks/portier',
  url: 'https://app.example.org/hooks/portier',
  time: '14:00:00',
};

const LOCAL_TIMES: Record<string, string> = {
  open: '08:00',
  close: '22:00',
  start: '09:00',
  end: '17:00',
  startTime: '09:00',
  endTime: '17:00',
};

const INTEGERS: Record<string, number> = {
  gpio_pin: 17,
  duration_seconds: 5,
  totalPrice: 12000,
  amount: 12000,
  pageSize: 20,
  page: 1,
  total: 1,
  percent: 10,
};

type Resolve = (ref: string) => JsonSchema | undefined;

/** A value of `schema` (a plausible one, by format and property name). */
export function exampleOf(
  schema: JsonSchema | undefined,
  resolve: Resolve,
  name = '',
  depth = 0,
  fullObjects = true,
): unknown {
  // A $ref or a oneOf step counts as a level too: 16 is deep enough for every shape and stops a cycle.
  if (!schema || depth > 16) return undefined;
  if (typeof schema.$ref === 'string') return exampleOf(resolve(schema.$ref), resolve, name, depth + 1, fullObjects);
  if (Array.isArray(schema.examples) && schema.examples.length) return schema.examples[0];
  if ('example' in schema) return schema.example;
  if ('default' in schema) return schema.default;
  if ('const' in schema) return schema.const;
  if (Array.isArray(schema.enum)) return schema.enum.find((v) => v !== null) ?? null;
  const variants = (schema.oneOf ?? schema.anyOf) as JsonSchema[] | undefined;
  if (variants?.length) {
    const chosen = variants.find((v) => v.type !== 'null') ?? variants[0];
    return exampleOf(
      { ...chosen, ...(schema.properties ? { properties: schema.properties } : {}) },
      resolve,
      name,
      depth + 1,
      fullObjects,
    );
  }
  const types = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string | undefined];
  const type = types.find((t) => t !== 'null') ?? (types.includes('null') ? 'null' : undefined);
  switch (type) {
    case 'null':
      return null;
    case 'string':
      return stringOf(schema, name);
    case 'integer':
    case 'number': {
      const min = typeof schema.minimum === 'number' ? schema.minimum : undefined;
      const max = typeof schema.maximum === 'number' ? schema.maximum : undefined;
      let value = INTEGERS[name] ?? 1;
      if (min !== undefined && value < min) value = min;
      if (max !== undefined && value > max) value = max;
      return value;
    }
    case 'boolean':
      return true;
    case 'array': {
      if (schema.maxItems === 0) return [];
      const item = exampleOf(schema.items as JsonSchema | undefined, resolve, singular(name), depth + 1, fullObjects);
      return item === undefined ? [] : [item];
    }
    case 'object':
      return objectOf(schema, resolve, depth, fullObjects);
    default:
      // No type: any JSON value.
      return schema.properties ? objectOf(schema, resolve, depth, fullObjects) : {};
  }
}

function objectOf(schema: JsonSchema, resolve: Resolve, depth: number, fullObjects: boolean): Record<string, unknown> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const names = Object.keys(properties).filter((n) => fullObjects || required.has(n));
  const result: Record<string, unknown> = {};
  for (const name of names) {
    const value = exampleOf(properties[name], resolve, name, depth + 1, fullObjects);
    if (value !== undefined) result[name] = value;
  }
  return result;
}

const singular = (name: string) => (name === 'ids' ? 'id' : name.endsWith('Ids') ? name.slice(0, -1) : name);

function stringOf(schema: JsonSchema, name: string): string {
  const format = typeof schema.format === 'string' ? schema.format : undefined;
  if (format === 'uuid') return UUIDS[name] ?? FALLBACK_UUID;
  if (format && FORMATS[format]) return FORMATS[format];
  // Local dates YYYY-MM-DD (the LocalDate scalar's pattern, as graphql-scalars gives it).
  if (typeof schema.pattern === 'string' && schema.pattern.startsWith('^\\d{4}-\\d{2}-\\d{2}')) return '2026-12-04';
  // Local times HH:MM (openapi-hints.ts HHMM, the opening hours' patterns).
  if (typeof schema.pattern === 'string' && schema.pattern.includes('[0-5][0-9]')) return LOCAL_TIMES[name] ?? '14:00';
  let value = STRINGS[name] ?? (name ? `${name} example` : 'example');
  const min = typeof schema.minLength === 'number' ? schema.minLength : 0;
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : Infinity;
  if (value.length < min) value = value.padEnd(min, 'x');
  if (value.length > max) value = value.slice(0, max);
  return value;
}

/** A body of a media type that is not JSON. */
export function textExample(contentType: string): string | undefined {
  if (contentType.startsWith('text/html')) return '<!doctype html>\n<html lang="en">…</html>';
  if (contentType.startsWith('text/csv')) return undefined;
  if (contentType.startsWith('text/javascript')) return '/* the renderer’s script */';
  if (contentType.startsWith('image/svg+xml'))
    return '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32">…</svg>';
  if (contentType.startsWith('application/octet-stream')) return '…';
  if (contentType.startsWith('text/plain')) return '';
  return undefined;
}

/** Whether a media type carries JSON. */
export const isJson = (contentType: string) => /^application\/([a-z0-9.+-]*\+)?json/.test(contentType);
