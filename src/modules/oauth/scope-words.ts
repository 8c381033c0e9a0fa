import type { Scope } from '../../kernel/auth/scopes.js';

// What each scope lets an app do, in the words the consent page shows.
export const SCOPE_WORDS: Record<Scope, string> = {
  'bookings:read': 'See your bookings',
  'bookings:write': 'Create, change and cancel bookings',
  'catalog:read': 'See your accommodations, bookable objects and doors',
  'catalog:write': 'Change your accommodations, bookable objects and doors',
  'pricing:read': 'See your prices, pricing rules and cancellation policies',
  'pricing:write': 'Change your prices, pricing rules and cancellation policies',
  'webhooks:read': 'See your webhooks, their deliveries and the events feed (booking and device events)',
  'webhooks:write': 'Create, change and delete webhooks',
  'devices:read': 'See your devices, their state and the access log',
  'devices:write': 'Register and manage devices, and unlock doors',
  'customers:read': 'See your customers, their bookings, payments and notes, and export their data',
  'customers:write': 'Change, merge and erase your customers',
  booking_page: 'See your public booking page and published objects, and book them for guests',
  admin: 'Full control of your Portier account, including API keys, users and apps',
};
