import { makeExecute, type Plugin } from '@envelop/core';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';
import type { DocumentNode, ExecutionArgs, ExecutionResult } from 'graphql';

type Entry = Pick<CompiledQuery, 'query'> | { query: () => ExecutionResult };

/**
 * Compiled execution (graphql-jit): each operation is compiled once to JavaScript and reused.
 *
 * Why not @envelop/graphql-jit as is: its cache is keyed by the executed document, and the auth
 * plugin's extended validation hands execution a fresh copy of the document on every request, so
 * every request compiled anew. This plugin runs before that validation and keys the cache on the
 * parsed document itself (yoga's parser cache keeps it stable); the
 * copy the validation makes differs only when it rejects the request, and then nothing executes.
 */
export function useCompiledExecution(): Plugin {
  const compiled = new WeakMap<DocumentNode, Map<string, Entry>>();
  return {
    onExecute({ args, setExecuteFn }) {
      const document: DocumentNode = args.document as DocumentNode;
      setExecuteFn(
        makeExecute((execArgs: ExecutionArgs) => {
          const operation = execArgs.operationName ?? '';
          let byOperation = compiled.get(document);
          if (!byOperation) compiled.set(document, (byOperation = new Map<string, Entry>()));
          let entry = byOperation.get(operation);
          if (!entry) {
            const result = compileQuery(execArgs.schema, document, execArgs.operationName ?? undefined);
            entry = isCompiledQuery(result) ? result : { query: () => result as ExecutionResult };
            byOperation.set(operation, entry);
          }
          return entry.query(execArgs.rootValue, execArgs.contextValue, execArgs.variableValues ?? {});
        }),
      );
    },
  };
}
