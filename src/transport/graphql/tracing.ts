import { getOperationAST, type ExecutionArgs, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { inSpan, SpanKind, type Tracing } from '../../kernel/tracing.js';

// One span per executed GraphQL operation (docs/operations.md#traces), named per OpenTelemetry's
// GraphQL conventions: `<type> <name>` (`query Bookings`), or the type alone for an unnamed one. It
// wraps execution, so the resolvers' SQL statements are its children. Registered last, so it wraps
// whatever the plugins before it made the execute function (the compiled execution). No plugin at
// all when tracing is off.

export function tracingPlugins(tracing: Tracing | undefined): Plugin[] {
  if (!tracing) return [];
  return [
    {
      onExecute({ executeFn, setExecuteFn }) {
        setExecuteFn((args: ExecutionArgs) => {
          const operation = getOperationAST(args.document, args.operationName ?? undefined);
          const type = operation?.operation ?? 'query';
          const name = operation?.name?.value;
          return inSpan(
            tracing.tracer,
            name ? `${type} ${name}` : type,
            {
              kind: SpanKind.INTERNAL,
              attributes: name
                ? { 'graphql.operation.type': type, 'graphql.operation.name': name }
                : { 'graphql.operation.type': type },
            },
            async (span) => {
              const result = (await executeFn(args)) as ExecutionResult;
              if (result.errors?.length) span.setAttribute('portier.graphql.errors', result.errors.length);
              return result;
            },
          );
        });
      },
    },
  ];
}
