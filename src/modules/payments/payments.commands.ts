import { Type, type StaticDecode } from '@sinclair/typebox';
import { Flag, Id, Nullable, Whole, parseCommand } from '../../kernel/commands.js';

// The payments module's commands (docs/architecture.md, "Typed commands").

export const MarkBookingPaid = Type.Object({
  id: Id({ message: 'must be a booking id (uuid)' }),
  amount: Whole(1, 100_000_000, { message: 'must be a whole number of cents from 1 to 100000000' }),
  note: Nullable(Type.String({ maxLength: 500 }), { message: 'must be a string of at most 500 characters' }),
});
export type MarkBookingPaid = StaticDecode<typeof MarkBookingPaid>;
export const parseMarkBookingPaid = (input: unknown): MarkBookingPaid => {
  const command = parseCommand(MarkBookingPaid, input);
  return { ...command, note: command.note?.trim() || null };
};

export const UpdateTenantSettings = Type.Object({
  confirmOnPayment: Nullable(Flag()),
  pendingExpiryMinutes: Nullable(
    Whole(1, 10_080, {
      message: 'must be a whole number of minutes from 1 to 10080 (7 days), or null to hold no slot',
    }),
  ),
});
export type UpdateTenantSettings = StaticDecode<typeof UpdateTenantSettings>;
export const parseUpdateTenantSettings = (input: unknown): UpdateTenantSettings =>
  parseCommand(UpdateTenantSettings, input);

export const RetryRefund = Type.Object({
  bookingId: Id({ message: 'must be a booking id (uuid)' }),
});
export type RetryRefund = StaticDecode<typeof RetryRefund>;
export const parseRetryRefund = (input: unknown): RetryRefund => parseCommand(RetryRefund, input);

export const AcknowledgePaymentIssue = Type.Object({
  id: Id({ message: 'must be a payment issue id (uuid, PaymentIssue.id)' }),
});
export type AcknowledgePaymentIssue = StaticDecode<typeof AcknowledgePaymentIssue>;
export const parseAcknowledgePaymentIssue = (input: unknown): AcknowledgePaymentIssue =>
  parseCommand(AcknowledgePaymentIssue, input);
