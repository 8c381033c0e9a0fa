import {
  context,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Span,
  type Tracer,
} from '@opentelemetry/api';

// OpenTelemetry traces (docs/operations.md#traces). The tracer provider is built once at the
// composition root (src/app/tracing.ts) when OTEL_EXPORTER_OTLP_ENDPOINT is set; otherwise
// `deps.tracing` is undefined and every instrumented place skips span creation (no attribute or
// name is built), so tracing costs nothing when off.

/** Incoming headers as node:http gives them. */
export type IncomingHeaders = Record<string, string | string[] | undefined>;

export interface Tracing {
  tracer: Tracer;
  /**
   * The caller's trace context from a W3C `traceparent` (and `tracestate`) header. A malformed,
   * all-zero, repeated or oversized header is ignored: the root context comes back.
   */
  extract(headers: IncomingHeaders): Context;
  /** Writes the active span's `traceparent` (and `tracestate`) into outgoing headers. */
  inject(headers: Record<string, string>): void;
  /** Exports the spans still buffered, then stops exporting (shutdown). */
  shutdown(): Promise<void>;
}

export { SpanKind, SpanStatusCode, trace, context };
export type { Attributes, Span, Tracer };

/** An error's message, for a span's status. */
function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** Marks a span failed with an error (the exception is recorded as an event). */
export function failSpan(span: Span, error: unknown): void {
  if (error instanceof Error) span.recordException(error);
  span.setStatus({ code: SpanStatusCode.ERROR, message: messageOf(error) });
}

/**
 * Runs `run` inside a new span (the active one while it runs, so what it calls becomes its
 * children), ending the span when it settles; a throw marks the span failed and is rethrown.
 */
export function inSpan<T>(
  tracer: Tracer,
  name: string,
  options: { kind?: SpanKind; attributes?: Attributes },
  run: (span: Span) => Promise<T>,
): Promise<T> {
  return tracer.startActiveSpan(name, options, async (span) => {
    try {
      return await run(span);
    } catch (error) {
      failSpan(span, error);
      throw error;
    } finally {
      span.end();
    }
  });
}

/** True when a span is active: background work outside any span (polls) is not traced. */
export function hasActiveSpan(): boolean {
  return trace.getSpan(context.active()) !== undefined;
}

/**
 * Runs `run` outside any trace: background work a request (or a notification its commit sent)
 * wakes — dispatcher passes, deliveries, sends, the event tail's reads — must not become part of
 * that request's trace (docs/operations.md#traces). What `run` starts (timers, promises) keeps
 * the root context, so its spans start traces of their own.
 */
export function detached<T>(run: () => T): T {
  return context.with(ROOT_CONTEXT, run);
}
