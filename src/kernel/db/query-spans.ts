import { performance } from 'node:perf_hooks';
import type { LogEvent } from 'kysely';
import { failSpan, hasActiveSpan, SpanKind, type Tracer } from '../tracing.js';

// One CLIENT span per SQL statement Kysely sends (docs/operations.md#traces), on PostgreSQL and on
// PGlite alike (one dialect, one driver). The text is the parameterised statement ($1, $2, …):
// parameter values are never recorded.

/** The statement's first keyword (SELECT, INSERT, BEGIN, …): the span's name; "SQL" when there is none. */
export function operationOf(sql: string): string {
  const match = /^\s*([A-Za-z]+)/.exec(sql);
  return match?.[1] ? match[1].toUpperCase() : 'SQL';
}

/**
 * Records a statement that just ran. Only inside a span (a request, a delivery): the background
 * polls' statements, outside any, would be thousands of one-span traces.
 */
export function traceQuery(tracer: Tracer, kind: 'pglite' | 'postgres', event: LogEvent): void {
  if (!hasActiveSpan()) return;
  const end = performance.timeOrigin + performance.now();
  const operation = operationOf(event.query.sql);
  const span = tracer.startSpan(operation, {
    kind: SpanKind.CLIENT,
    startTime: end - event.queryDurationMillis,
    attributes: {
      'db.system': 'postgresql',
      'db.system.name': 'postgresql',
      'db.operation.name': operation,
      'db.query.text': event.query.sql,
      'portier.database': kind,
    },
  });
  if (event.level === 'error') failSpan(span, event.error);
  span.end(end);
}
