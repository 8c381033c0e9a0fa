import { Type, type StaticDecode } from '@sinclair/typebox';
import { Nullable, ScopeList, Text, Whole, parseCommand } from '../../kernel/commands.js';

// The tenants module's commands (docs/architecture.md, "Typed commands"): checked where input
// enters (the createApiKey resolver, the CLI); the service trusts them.

const NAME = 'must be a non-empty string of at most 200 characters';

export const CreateTenant = Type.Object({
  name: Text({ message: NAME }),
});
export type CreateTenant = StaticDecode<typeof CreateTenant>;
export const parseCreateTenant = (input: unknown): CreateTenant => parseCommand(CreateTenant, input);

export const CreateApiKey = Type.Object({
  name: Text({ message: NAME }),
  scopes: ScopeList(),
  rateLimitPerMinute: Nullable(Whole(1, 1_000_000, { message: 'must be a positive integer' })),
});
export type CreateApiKey = StaticDecode<typeof CreateApiKey>;
export const parseCreateApiKey = (input: unknown): CreateApiKey => parseCommand(CreateApiKey, input);
