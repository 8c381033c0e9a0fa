import { defineModule } from '../../kernel/module.js';
import { userResolvers } from './users.resolvers.js';
import { registerStaffAccountRoutes } from './staff.routes.js';
import type { StaffAccounts } from './staff-accounts.js';
// The users module's public face: other modules (OAuth, the CLI, the demo) import from here.
export {
  registerSessionRoutes,
  sessionUserOf,
  SESSION_COOKIE,
  CSRF_HEADER,
  SESSION_PATH,
  type SessionUser,
  DashboardSessions,
} from './session.http.js';
export { csrfTokenOf, csrfTokenMatches, SESSION_IDLE_MS, SESSION_MAX_MS } from './sessions.service.js';
export { scopesOfRole, effectiveScopesOfRole, ROLES, isRole, type Role } from './roles.js';
export { createUser, verifyCredentials } from './users.service.js';
export { parseCreateUser, type CreateUser } from './users.commands.js';
export {
  recordAudit,
  actorOf,
  userActor,
  CLI_ACTOR,
  SYSTEM_ACTOR,
  type AuditAction,
  type AuditActor,
} from '../audit/index.js';
export {
  createSignInThrottle,
  DEFAULT_SIGN_IN_THROTTLE,
  type SignInThrottle,
  type SignInThrottleOptions,
} from './throttle.js';
export { isOwnOrigin } from './origin.js';
export { userResolvers } from './users.resolvers.js';
export {
  createStaffAccounts,
  PASSWORD_RESET_LIMITS,
  PASSWORD_RESET_TTL_MS,
  INVITATION_TTL_MS,
  type StaffAccounts,
} from './staff-accounts.js';
export { registerStaffAccountRoutes, PASSWORD_RESET_PATH, INVITATION_PATH } from './staff.routes.js';
export { staffMailTexts } from './staff-mail.texts.js';

declare module '../../kernel/deps.js' {
  interface Collaborators {
    /** Password resets' throttle and the queue that mails reset links off the request path. */
    staffAccounts: StaffAccounts;
  }
}

/** The users module (src/app/modules.ts lists it; docs/architecture.md, "Modules"). */
export const usersModule = defineModule({
  name: 'users',
  dependsOn: ['audit', 'tenants'],
  typeDefs: ['users.graphql'],
  resolvers: userResolvers,
  routes: (fastify, deps) => {
    registerStaffAccountRoutes(fastify, deps);
  },
});
