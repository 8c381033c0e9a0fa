import { Type, type StaticDecode } from '@sinclair/typebox';
import {
  Flag,
  Nullable,
  ScopeList,
  Text,
  commandErrors,
  fieldOf,
  parseCommand,
  refuse,
} from '../../kernel/commands.js';
import { classifyRedirectUri } from './redirect-uris.js';

// The OAuth module's commands (docs/architecture.md, "Typed commands"): checked where input
// enters (the createOAuthApp resolver, the CLI); the service trusts them.

export const MAX_REDIRECT_URIS = 10;

export const CreateApp = Type.Object({
  name: Text({ message: 'must be a non-empty string of at most 200 characters' }),
  redirectUris: Type.Array(Type.String(), {
    minItems: 1,
    maxItems: MAX_REDIRECT_URIS,
    message: `must list 1 to ${MAX_REDIRECT_URIS} redirect URIs`,
  }),
  scopes: ScopeList(),
  public: Nullable(Flag()),
});
export type CreateApp = StaticDecode<typeof CreateApp>;

/** An app to register: the fields, then each redirect URI (RFC 9700 §2.1, RFC 8252), one error per refused URI. */
export function parseCreateApp(input: unknown): CreateApp {
  const errors = commandErrors(CreateApp, input);
  const uris = fieldOf(input, 'redirectUris');
  if (!errors.some((e) => e.field === 'redirectUris') && Array.isArray(uris)) {
    for (const uri of uris as string[]) {
      const checked = classifyRedirectUri(uri);
      if ('error' in checked) errors.push({ field: 'redirectUris', message: checked.error });
    }
  }
  if (errors.length) refuse(CreateApp, errors);
  return parseCommand(CreateApp, input);
}
