import { Type, type StaticDecode } from '@sinclair/typebox';
import { Nullable, ScopeList, Text, Whole, parseCommand } from '../../kernel/commands.js';
import { invalidField } from '../../kernel/errors.js';

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

export const CreatePublishableKey = Type.Object({
  rateLimitPerMinute: Nullable(Whole(1, 1_000_000, { message: 'must be a positive integer' })),
});
export type CreatePublishableKey = StaticDecode<typeof CreatePublishableKey>;
export const parseCreatePublishableKey = (input: unknown): CreatePublishableKey =>
  parseCommand(CreatePublishableKey, input);
/** What an API key's change may set: its name, its scopes (narrower or wider), or both. */
export const UpdateApiKey = Type.Object({
  name: Type.Optional(CreateApiKey.properties.name),
  scopes: Type.Optional(CreateApiKey.properties.scopes),
});
export type UpdateApiKey = StaticDecode<typeof UpdateApiKey>;

/** The fields to change; at least one (an argument left out or null changes nothing). */
export function parseUpdateApiKey(input: { name?: unknown; scopes?: unknown }): UpdateApiKey {
  const present = Object.fromEntries(
    Object.entries({ name: input.name, scopes: input.scopes }).filter(
      ([, value]) => value !== undefined && value !== null,
    ),
  );
  if (Object.keys(present).length === 0) throw invalidField('scopes', 'give at least one of name and scopes');
  return parseCommand(UpdateApiKey, present);
}
