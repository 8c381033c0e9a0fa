// One list of scopes for the server and the dashboard's checkboxes.
export { SCOPES } from '../../src/kernel/auth/scopes';

/** What each scope lets a key do, shown next to its checkbox. */
export const SCOPE_HINTS: Record<string, string> = {
  'bookings:read': 'List bookings, credentials, availability',
  'bookings:write': 'Create bookings, change their status',
  'catalog:read': 'Read accommodations, objects, doors',
  'catalog:write': 'Change the catalog',
  'pricing:read': 'Read pricing rules and policies, quote prices',
  'pricing:write': 'Change pricing rules and policies',
  'webhooks:read': 'Read webhooks and their delivery log',
  'webhooks:write': 'Create, test and delete webhooks',
  'devices:read': 'Read devices and the access log',
  'devices:write': 'Register devices, queue unlocks, revoke',
  'customers:read': 'Read customers, export their data',
  'customers:write': 'Change, merge and erase customers',
  booking_page: 'The public booking page only (publishable keys)',
  admin: 'Everything, including API keys',
};
