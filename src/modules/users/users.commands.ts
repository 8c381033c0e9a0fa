import { FormatRegistry, Type, type StaticDecode } from '@sinclair/typebox';
import { Nullable, OneOf, parseCommand } from '../../kernel/commands.js';
import { isEmail } from '../../kernel/validation.js';
import { passwordProblem } from './password.js';
import { ROLES, type Role } from './roles.js';

// The users module's commands (docs/architecture.md, "Typed commands"): checked where input
// enters (the resolvers, the sign-in route, the CLI); the service trusts them.

FormatRegistry.Set('portier-user-email', (value) => isEmail(value.trim()));
FormatRegistry.Set('portier-password', (value) => passwordProblem(value) === null);

/** A new password: the message says what is wrong with it (too short, too long). */
const Password = () =>
  Type.String({
    format: 'portier-password',
    message: (value: unknown) => passwordProblem(value) ?? 'must be a string',
  });

const RoleOf = () => OneOf(ROLES, { message: `must be one of ${ROLES.join(', ')}` });

export const CreateUser = Type.Object({
  email: Type.Transform(Type.String({ format: 'portier-user-email', message: 'must be an email address' }))
    .Decode((value) => value.trim())
    .Encode((value) => value),
  password: Password(),
  role: Nullable(RoleOf()),
});
export type CreateUser = Omit<StaticDecode<typeof CreateUser>, 'role'> & { role: Role };

/** A user to create; no role means admin. */
export function parseCreateUser(input: unknown): CreateUser {
  const command = parseCommand(CreateUser, input);
  return { ...command, role: command.role ?? 'admin' };
}

export const UpdateUserRole = Type.Object({ role: RoleOf() });
export type UpdateUserRole = StaticDecode<typeof UpdateUserRole>;
export const parseUpdateUserRole = (input: unknown): UpdateUserRole => parseCommand(UpdateUserRole, input);

export const ChangePassword = Type.Object({
  currentPassword: Type.String({ minLength: 1, message: 'is required' }),
  newPassword: Password(),
});
export type ChangePassword = StaticDecode<typeof ChangePassword>;
export const parseChangePassword = (input: unknown): ChangePassword => parseCommand(ChangePassword, input);

const requiredText = (value: unknown) =>
  typeof value === 'string' || value === undefined ? 'is required' : 'must be a string';

/** A dashboard sign-in's body (any other body counts as one without the fields). */
export const SignIn = Type.Object({
  email: Type.Transform(Type.String({ format: 'portier-text', message: requiredText }))
    .Decode((value) => value.trim())
    .Encode((value) => value),
  password: Type.String({ minLength: 1, message: requiredText }),
});
export type SignIn = StaticDecode<typeof SignIn>;
export const parseSignIn = (body: unknown): SignIn =>
  parseCommand(SignIn, typeof body === 'object' && body !== null ? body : {});

// Staff accounts (issue #43): invitations and password resets.

const Locale = () => OneOf(['en', 'de'] as const, { message: 'must be one of en, de' });

export const InviteUser = Type.Object({
  email: Type.Transform(Type.String({ format: 'portier-user-email', message: 'must be an email address' }))
    .Decode((value) => value.trim())
    .Encode((value) => value),
  role: Nullable(RoleOf()),
  locale: Nullable(Locale()),
});
export interface InviteUser {
  email: string;
  role: Role;
  locale: 'en' | 'de';
}
/** An invitation to send; no role means staff, no locale English. */
export function parseInviteUser(input: unknown): InviteUser {
  const command = parseCommand(InviteUser, input);
  return { email: command.email, role: command.role ?? 'staff', locale: command.locale ?? 'en' };
}

const LinkToken = () => Type.String({ minLength: 1, maxLength: 200, message: 'is required' });

/** "Forgot password": the email to mail a link to (any body counts as one without it). */
export const RequestPasswordReset = Type.Object({
  email: Type.Transform(Type.String({ format: 'portier-user-email', message: 'must be an email address' }))
    .Decode((value) => value.trim())
    .Encode((value) => value),
});
export type RequestPasswordReset = StaticDecode<typeof RequestPasswordReset>;
export const parseRequestPasswordReset = (body: unknown): RequestPasswordReset =>
  parseCommand(RequestPasswordReset, typeof body === 'object' && body !== null ? body : {});

/** A mailed link's token and the password chosen with it (reset or accepted invitation). */
export const SetPasswordByLink = Type.Object({ token: LinkToken(), password: Password() });
export type SetPasswordByLink = StaticDecode<typeof SetPasswordByLink>;
export const parseSetPasswordByLink = (body: unknown): SetPasswordByLink =>
  parseCommand(SetPasswordByLink, typeof body === 'object' && body !== null ? body : {});

export const LinkTokenBody = Type.Object({ token: LinkToken() });
export type LinkTokenBody = StaticDecode<typeof LinkTokenBody>;
export const parseLinkToken = (body: unknown): LinkTokenBody =>
  parseCommand(LinkTokenBody, typeof body === 'object' && body !== null ? body : {});
