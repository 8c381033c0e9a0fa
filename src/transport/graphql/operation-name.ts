import { getOperationAST, type DocumentNode } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { FastifyRequest } from 'fastify';

// The name of the GraphQL operation a request ran, for the request metrics' `operation` label
// (src/transport/http/metrics.ts). Recorded when execution starts: a request refused before it
// (unparsable, invalid) has none.

export interface ExecutedOperation {
  /** The operation's name; undefined for an unnamed operation. */
  name: string | undefined;
}

const executed = new WeakMap<FastifyRequest, ExecutedOperation>();

/** The operation the request ran, or undefined when it ran none. */
export function executedOperation(req: FastifyRequest): ExecutedOperation | undefined {
  return executed.get(req);
}

/** Records the operation a request ran outside yoga (the planned lane). */
export function recordExecutedOperation(req: FastifyRequest, name: string | undefined): void {
  executed.set(req, { name });
}

export function operationNamePlugin(): Plugin {
  return {
    onExecute({ args }) {
      const req = (args.contextValue as { req?: FastifyRequest } | undefined)?.req;
      if (!req) return;
      const operationName = args.operationName as string | null | undefined;
      const operation = getOperationAST(args.document as DocumentNode, operationName ?? undefined);
      executed.set(req, { name: operation?.name?.value });
    },
  };
}
