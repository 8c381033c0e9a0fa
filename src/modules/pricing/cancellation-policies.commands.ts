import { Type } from '@sinclair/typebox';
import type { CancellationTier } from '../../kernel/db/types.js';
import { Flag, Nullable, Text, commandErrors, fieldOf, parseCommand, refuse } from '../../kernel/commands.js';
import { checkTiers } from './policy.js';

// Cancellation policy commands (docs/architecture.md, "Typed commands"). The tiers' own rules
// (each tier's fields, no two tiers at the same hour) are checkTiers in policy.ts, run here too.

const NAME = 'must be a non-empty string of at most 200 characters';
const TIERS = Type.Optional(Type.Unknown({ message: 'checked by checkTiers (policy.ts)' }));

export const CreatePolicy = Type.Object({ name: Text({ message: NAME }), tiers: TIERS, isDefault: Nullable(Flag()) });
export const UpdatePolicy = Type.Object({
  name: Nullable(Text({ message: NAME })),
  tiers: TIERS,
  isDefault: Nullable(Flag()),
});

export interface CreatePolicy {
  name: string;
  tiers: CancellationTier[];
  isDefault: boolean;
}
/** Given fields replace the stored ones; an absent one keeps it. */
export interface UpdatePolicy {
  name?: string;
  tiers?: CancellationTier[];
  isDefault?: boolean;
}

export function parseCreatePolicy(input: unknown): CreatePolicy {
  const errors = commandErrors(CreatePolicy, input);
  const checked = checkTiers(fieldOf(input, 'tiers'));
  if (checked.tiers === undefined || errors.length) refuse(CreatePolicy, [...errors, ...checked.errors]);
  const { name, isDefault } = parseCommand(CreatePolicy, input);
  return { name, tiers: checked.tiers, isDefault: isDefault ?? false };
}

export function parseUpdatePolicy(input: unknown): UpdatePolicy {
  const given = fieldOf(input, 'tiers');
  const checked = given == null ? { tiers: undefined, errors: [] } : checkTiers(given);
  const errors = [...commandErrors(UpdatePolicy, input), ...checked.errors];
  if (errors.length) refuse(UpdatePolicy, errors);
  const { name, isDefault } = parseCommand(UpdatePolicy, input);
  return {
    ...(name != null ? { name } : {}),
    ...(checked.tiers ? { tiers: checked.tiers } : {}),
    ...(isDefault != null ? { isDefault } : {}),
  };
}
