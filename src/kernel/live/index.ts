// Live updates for GraphQL subscriptions (docs/subscriptions.md): the hub, its transports and the cap.
export {
  LiveHub,
  CREDENTIAL_NOTICE,
  DEVICE_NOTICE,
  type LiveNoticeTopic,
  MAX_QUEUED_MESSAGES,
  type LiveFilter,
  type LiveMessage,
  type LiveSource,
  type LiveStream,
  type LiveTopic,
  type LiveTransport,
} from './hub.js';
export { notifyTransport, redisTransport, LIVE_CHANNEL, LIVE_REDIS_CHANNEL } from './transports.js';
export { SubscriptionSlots } from './slots.js';
export { announceCredentialChange, liveMessageOf, liveStream, type Live } from './live.js';
export { sharedRead } from './shared-read.js';
export {
  StreamGuard,
  credentialKey,
  credentialRevoked,
  scopeRevoked,
  type CredentialCheck,
  type CredentialState,
} from './guard.js';
