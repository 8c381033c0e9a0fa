import { useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import type { TypedDocumentString } from '../gql/graphql';
import { execute } from './client';

/** A GraphQL query through react-query; the key names the data so mutations can refresh it. */
export function useGraphQL<TResult, TVariables>(
  key: QueryKey,
  document: TypedDocumentString<TResult, TVariables>,
  variables: TVariables,
  options: { enabled?: boolean; refetchInterval?: number } = {},
) {
  return useQuery({
    queryKey: [...key, variables],
    queryFn: () => (execute as (d: typeof document, v: TVariables) => Promise<TResult>)(document, variables),
    ...options,
  });
}

/** A GraphQL mutation that refreshes the listed query keys when it succeeds. */
export function useGraphQLMutation<TResult, TVariables>(
  document: TypedDocumentString<TResult, TVariables>,
  invalidates: QueryKey[] = [],
) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (variables: TVariables) =>
      (execute as (d: typeof document, v: TVariables) => Promise<TResult>)(document, variables),
    onSuccess: async () => {
      await Promise.all(invalidates.map((queryKey) => queryClient.invalidateQueries({ queryKey })));
    },
  });
}
