import { randomUUID } from 'node:crypto';
import { ROOT_CONTEXT, defaultTextMapGetter, defaultTextMapSetter, context } from '@opentelemetry/api';
import { W3CTraceContextPropagator } from '@opentelemetry/core';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor } from '@opentelemetry/sdk-trace-base';
import { NodeTracerProvider } from '@opentelemetry/sdk-trace-node';
import { ATTR_SERVICE_NAME } from '@opentelemetry/semantic-conventions';
import type { TracingEnv } from '../kernel/env.js';
import type { IncomingHeaders, Tracing } from '../kernel/tracing.js';

// The tracer provider, built once per process by the runtime (src/app/runtime.ts) when
// OTEL_EXPORTER_OTLP_ENDPOINT is set, and shut down (its buffer exported) when the process stops.
// Manual instrumentation only: the project is ESM, and the places worth a span are few and known
// (docs/operations.md#traces).

/** A `traceparent` is 55 characters; anything much longer is not one (and is not parsed). */
const MAX_TRACEPARENT_LENGTH = 128;
/** W3C allows tracestate up to 512 characters (32 members). */
const MAX_TRACESTATE_LENGTH = 512;
/** Attribute values (SQL text, paths) are cut at this length. */
const ATTRIBUTE_VALUE_LIMIT = 4096;

/** The one trace header of a request, or undefined when it is missing, repeated or too long. */
function single(value: string | string[] | undefined, max: number): string | undefined {
  return typeof value === 'string' && value.length <= max ? value : undefined;
}

export function startTracing(config: TracingEnv | null): Tracing | undefined {
  if (!config) return undefined;
  const provider = new NodeTracerProvider({
    resource: resourceFromAttributes({
      [ATTR_SERVICE_NAME]: config.serviceName,
      'service.instance.id': randomUUID(),
    }),
    spanLimits: { attributeValueLengthLimit: ATTRIBUTE_VALUE_LIMIT },
    spanProcessors: [new BatchSpanProcessor(new OTLPTraceExporter({ url: `${config.endpoint}/v1/traces` }))],
  });
  const propagator = new W3CTraceContextPropagator();
  // Registers the async-local-storage context manager (so a span started in a handler is the parent
  // of what it awaits) and the provider as the global one, for libraries that use the global API.
  provider.register({ propagator });
  const tracer = provider.getTracer('portier');
  return {
    tracer,
    extract(headers: IncomingHeaders) {
      const traceparent = single(headers.traceparent, MAX_TRACEPARENT_LENGTH);
      if (!traceparent) return ROOT_CONTEXT;
      const tracestate = single(headers.tracestate, MAX_TRACESTATE_LENGTH);
      // The propagator refuses what the W3C format refuses: a malformed header, all-zero ids,
      // version ff. The context it returns then carries no parent.
      return propagator.extract(
        ROOT_CONTEXT,
        tracestate === undefined ? { traceparent } : { traceparent, tracestate },
        defaultTextMapGetter,
      );
    },
    inject(headers) {
      propagator.inject(context.active(), headers, defaultTextMapSetter);
    },
    shutdown: () => provider.shutdown(),
  };
}
