import { Type, type StaticDecode } from '@sinclair/typebox';
import { Nullable, parseCommand } from '../../kernel/commands.js';
import { MAX_REMINDER_HOURS } from './notification.rules.js';

// The notification settings command (docs/architecture.md, "Typed commands"). A field left out
// keeps its value; null clears senderName, replyTo and reminderHoursBefore.

// No control characters (CR/LF would let a value add mail headers), at most 100 characters.
const HEADER_TEXT = '^[^\\u0000-\\u001f\\u007f\\u2028\\u2029]{1,100}$';
const ADDRESS =
  '^[^\\s@<>",;:\\u0000-\\u001f\\u007f]+@[^\\s@<>",;:\\u0000-\\u001f\\u007f]+\\.[^\\s@<>",;:\\u0000-\\u001f\\u007f]+$';

export const UpdateNotificationSettings = Type.Object({
  emailEnabled: Type.Optional(Type.Boolean({ message: 'must be true or false' })),
  smsEnabled: Type.Optional(Type.Boolean({ message: 'must be true or false' })),
  senderName: Type.Optional(
    Nullable(Type.String({ pattern: HEADER_TEXT }), {
      message: 'must be 1 to 100 characters without line breaks or control characters, or null',
    }),
  ),
  replyTo: Type.Optional(
    Nullable(Type.String({ maxLength: 254, pattern: ADDRESS }), {
      message: 'must be one email address such as desk@example.com, or null',
    }),
  ),
  reminderHoursBefore: Type.Optional(
    Nullable(Type.Integer({ minimum: 1, maximum: MAX_REMINDER_HOURS }), {
      message: `must be a whole number of hours from 1 to ${MAX_REMINDER_HOURS}, or null (no reminder)`,
    }),
  ),
});
export type UpdateNotificationSettings = StaticDecode<typeof UpdateNotificationSettings>;

export const parseUpdateNotificationSettings = (input: unknown): UpdateNotificationSettings =>
  parseCommand(UpdateNotificationSettings, input);

export const SendTestEmail = Type.Object({
  to: Type.String({ format: 'email', maxLength: 254, message: 'must be a valid email address' }),
});
export type SendTestEmail = StaticDecode<typeof SendTestEmail>;
export const parseSendTestEmail = (input: unknown): SendTestEmail => parseCommand(SendTestEmail, input);
