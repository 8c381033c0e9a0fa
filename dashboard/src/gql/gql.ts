/* eslint-disable */
import * as types from './graphql';



/**
 * Map of all GraphQL operations in the project.
 *
 * This map has several performance disadvantages:
 * 1. It is not tree-shakeable, so it will include all operations in the project.
 * 2. It is not minifiable, so the string of a GraphQL query will be multiple times inside the bundle.
 * 3. It does not support dead code elimination, so it will add unused operations.
 *
 * Therefore it is highly recommended to use the babel or swc plugin for production.
 * Learn more about it here: https://the-guild.dev/graphql/codegen/plugins/presets/preset-client#reducing-bundle-size
 */
type Documents = {
    "\n  query DashboardDoorNames {\n    doors {\n      id\n      name\n    }\n  }\n": typeof types.DashboardDoorNamesDocument,
    "\n  mutation DashboardChangePassword($currentPassword: String!, $newPassword: String!) {\n    changePassword(currentPassword: $currentPassword, newPassword: $newPassword) {\n      signedOutSessions\n    }\n  }\n": typeof types.DashboardChangePasswordDocument,
    "\n  query DashboardOverviewAccommodations {\n    accommodations {\n      id\n      name\n      timeZone\n    }\n  }\n": typeof types.DashboardOverviewAccommodationsDocument,
    "\n  query DashboardOverviewToday($from: String!, $to: String!) {\n    bookingPage(from: $from, to: $to, pageSize: 100) {\n      bookings {\n        id\n        guestName\n        objectName\n        startTime\n        endTime\n        status\n        object {\n          id\n          accommodationId\n        }\n      }\n      pagination {\n        total\n      }\n    }\n  }\n": typeof types.DashboardOverviewTodayDocument,
    "\n  query DashboardOverviewDevices {\n    devices {\n      id\n      name\n      status\n      online\n      lastHeartbeatAt\n    }\n  }\n": typeof types.DashboardOverviewDevicesDocument,
    "\n  query DashboardOverviewAccess {\n    accessLog(first: 100) {\n      id\n      deviceId\n      doorId\n      allowed\n      reason\n      checkedAt\n    }\n  }\n": typeof types.DashboardOverviewAccessDocument,
    "\n  query DashboardOverviewWebhooks {\n    webhooks {\n      id\n      url\n      active\n    }\n  }\n": typeof types.DashboardOverviewWebhooksDocument,
    "\n  query DashboardOverviewFailedDeliveries($webhookId: ID!) {\n    webhookDeliveries(webhookId: $webhookId, status: FAILED, first: 5) {\n      deliveries {\n        id\n        eventType\n        lastStatusCode\n        lastError\n        lastAttemptAt\n      }\n    }\n  }\n": typeof types.DashboardOverviewFailedDeliveriesDocument,
    "\n  query DashboardPaymentIssues {\n    paymentIssues {\n      id\n      kind\n      bookingId\n      amount\n      currency\n      detail\n      since\n      retryable\n    }\n  }\n": typeof types.DashboardPaymentIssuesDocument,
    "\n  mutation DashboardRetryRefund($bookingId: ID!) {\n    retryRefund(bookingId: $bookingId) {\n      id\n    }\n  }\n": typeof types.DashboardRetryRefundDocument,
    "\n  mutation DashboardAcknowledgePaymentIssue($id: ID!) {\n    acknowledgePaymentIssue(id: $id) {\n      id\n      acknowledgedAt\n    }\n  }\n": typeof types.DashboardAcknowledgePaymentIssueDocument,
    "\n  query DashboardApiKeys {\n    apiKeys {\n      id\n      name\n      prefix\n      scopes\n      rateLimitPerMinute\n      createdAt\n      lastUsedAt\n      revokedAt\n    }\n  }\n": typeof types.DashboardApiKeysDocument,
    "\n  mutation DashboardCreateApiKey($name: String!, $scopes: [String!]!, $rateLimitPerMinute: Int) {\n    createApiKey(name: $name, scopes: $scopes, rateLimitPerMinute: $rateLimitPerMinute) {\n      apiKey\n      apiKeyInfo {\n        id\n        name\n      }\n    }\n  }\n": typeof types.DashboardCreateApiKeyDocument,
    "\n  mutation DashboardRevokeApiKey($id: ID!) {\n    revokeApiKey(id: $id) {\n      id\n      revokedAt\n    }\n  }\n": typeof types.DashboardRevokeApiKeyDocument,
    "\n  query DashboardAuditLog($first: Int, $after: String) {\n    auditLog(first: $first, after: $after) {\n      edges {\n        cursor\n        node {\n          id\n          occurredAt\n          action\n          actor {\n            type\n            label\n          }\n          targetType\n          targetId\n          ipAddress\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.DashboardAuditLogDocument,
    "\n  query DashboardBookingPage {\n    bookingPageSettings {\n      saved\n      enabled\n      slug\n      url\n      paymentMode\n      onlinePaymentAvailable\n      allowedOrigins\n      logo\n      accentColour\n      defaultLocale\n      vatRateBasisPoints\n      updatedAt\n      texts {\n        en {\n          intro\n          cancellationPolicy\n          afterBooking\n        }\n        de {\n          intro\n          cancellationPolicy\n          afterBooking\n        }\n      }\n    }\n    viewer {\n      id\n      name\n    }\n    bookableObjects {\n      id\n      name\n      published\n      accommodation {\n        name\n      }\n    }\n    apiKeys {\n      id\n      kind\n      prefix\n      publishableKey\n      createdAt\n      revokedAt\n    }\n  }\n": typeof types.DashboardBookingPageDocument,
    "\n  mutation DashboardSaveBookingPage($input: BookingPageSettingsInput!) {\n    updateBookingPageSettings(input: $input) {\n      saved\n      slug\n    }\n  }\n": typeof types.DashboardSaveBookingPageDocument,
    "\n  mutation DashboardPublishObjects($ids: [ID!]!, $published: Boolean!) {\n    publishObjects(ids: $ids, published: $published) {\n      objects {\n        id\n        published\n      }\n    }\n  }\n": typeof types.DashboardPublishObjectsDocument,
    "\n  mutation DashboardCreatePublishableKey {\n    createPublishableKey {\n      apiKey\n    }\n  }\n": typeof types.DashboardCreatePublishableKeyDocument,
    "\n  mutation DashboardRevokePublishableKey($id: ID!) {\n    revokeApiKey(id: $id) {\n      id\n    }\n  }\n": typeof types.DashboardRevokePublishableKeyDocument,
    "\n  query DashboardDevice($id: ID!) {\n    device(id: $id) {\n      id\n      name\n      status\n      online\n      lastHeartbeatAt\n      serial\n      firmwareVersion\n      doors {\n        id\n        name\n      }\n    }\n    deviceCommands(deviceId: $id, first: 100) {\n      command {\n        id\n        type\n        status\n        payload\n        created_at\n        expires_at\n      }\n      doorId\n      deliveredAt\n      completedAt\n      result\n      error\n    }\n    doors {\n      id\n      name\n    }\n  }\n": typeof types.DashboardDeviceDocument,
    "\n  query DashboardDevices {\n    devices {\n      id\n      name\n      status\n      online\n      lastHeartbeatAt\n      serial\n      firmwareVersion\n      keyPrefix\n      activationExpiresAt\n      createdAt\n      telemetry {\n        cpuPercent\n        memoryPercent\n        wifiSignalDbm\n        doorStates {\n          doorId\n          state\n        }\n      }\n      doors {\n        id\n        name\n        gpioPin\n      }\n    }\n    doors {\n      id\n      name\n    }\n  }\n": typeof types.DashboardDevicesDocument,
    "\n  mutation DashboardRegisterDevice($name: String!, $doorIds: [ID!]!) {\n    registerDevice(name: $name, doorIds: $doorIds) {\n      activationCode\n      device {\n        id\n        name\n      }\n    }\n  }\n": typeof types.DashboardRegisterDeviceDocument,
    "\n  mutation DashboardSetDeviceDoors($id: ID!, $doorIds: [ID!]!) {\n    setDeviceDoors(id: $id, doorIds: $doorIds) {\n      id\n    }\n  }\n": typeof types.DashboardSetDeviceDoorsDocument,
    "\n  mutation DashboardRevokeDevice($id: ID!) {\n    revokeDevice(id: $id) {\n      id\n      status\n    }\n  }\n": typeof types.DashboardRevokeDeviceDocument,
    "\n  mutation DashboardQueueUnlock($deviceId: ID!, $doorId: ID!) {\n    createDeviceCommand(deviceId: $deviceId, type: \"unlock\", doorId: $doorId) {\n      command {\n        id\n        status\n        expires_at\n      }\n    }\n  }\n": typeof types.DashboardQueueUnlockDocument,
    "\n  query DashboardUserInvitations {\n    userInvitations {\n      id\n      email\n      role\n      invitedBy\n      createdAt\n      expiresAt\n      expired\n    }\n  }\n": typeof types.DashboardUserInvitationsDocument,
    "\n  mutation DashboardInviteUser($email: String!, $role: UserRole, $locale: Locale) {\n    inviteUser(email: $email, role: $role, locale: $locale) {\n      id\n      email\n    }\n  }\n": typeof types.DashboardInviteUserDocument,
    "\n  mutation DashboardRevokeUserInvitation($id: ID!) {\n    revokeUserInvitation(id: $id) {\n      revokedInvitationId\n    }\n  }\n": typeof types.DashboardRevokeUserInvitationDocument,
    "\n  query DashboardNotificationSettings {\n    notificationSettings {\n      emailEnabled\n      smsEnabled\n      senderName\n      replyTo\n      reminderHoursBefore\n      emailAvailable\n      smsAvailable\n    }\n  }\n": typeof types.DashboardNotificationSettingsDocument,
    "\n  mutation DashboardUpdateNotificationSettings($input: UpdateNotificationSettingsInput!) {\n    updateNotificationSettings(input: $input) {\n      emailEnabled\n      smsEnabled\n      senderName\n      replyTo\n      reminderHoursBefore\n    }\n  }\n": typeof types.DashboardUpdateNotificationSettingsDocument,
    "\n  mutation DashboardSendTestNotificationEmail($to: String!) {\n    sendTestNotificationEmail(to: $to) {\n      success\n      error\n    }\n  }\n": typeof types.DashboardSendTestNotificationEmailDocument,
    "\n  query DashboardOAuthApps {\n    oauthApps {\n      clientId\n      name\n      redirectUris\n      scopes\n      public\n      createdAt\n      secretRotatedAt\n      authorizedTenantCount\n    }\n  }\n": typeof types.DashboardOAuthAppsDocument,
    "\n  mutation DashboardCreateOAuthApp($name: String!, $redirectUris: [String!]!, $scopes: [String!]!, $public: Boolean) {\n    createOAuthApp(name: $name, redirectUris: $redirectUris, scopes: $scopes, public: $public) {\n      clientSecret\n      app {\n        clientId\n        name\n      }\n    }\n  }\n": typeof types.DashboardCreateOAuthAppDocument,
    "\n  mutation DashboardRotateOAuthAppSecret($clientId: ID!) {\n    rotateOAuthAppSecret(clientId: $clientId) {\n      clientSecret\n      app {\n        clientId\n        name\n      }\n    }\n  }\n": typeof types.DashboardRotateOAuthAppSecretDocument,
    "\n  mutation DashboardDeleteOAuthApp($clientId: ID!) {\n    deleteOAuthApp(clientId: $clientId)\n  }\n": typeof types.DashboardDeleteOAuthAppDocument,
    "\n  query DashboardConnectedApps {\n    connectedApps {\n      clientId\n      name\n      ownerTenantName\n      scopes\n      authorizedAt\n      lastUsedAt\n    }\n  }\n": typeof types.DashboardConnectedAppsDocument,
    "\n  mutation DashboardRevokeConnectedApp($clientId: ID!) {\n    revokeConnectedApp(clientId: $clientId)\n  }\n": typeof types.DashboardRevokeConnectedAppDocument,
    "\n  query DashboardProviderCredentials {\n    providerCredentials {\n      stripe {\n        set\n        hint\n        source\n        updatedAt\n      }\n      smtp {\n        set\n        hint\n        source\n        updatedAt\n      }\n      sms {\n        set\n        hint\n        source\n        updatedAt\n      }\n      stripeWebhookUrl\n    }\n  }\n": typeof types.DashboardProviderCredentialsDocument,
    "\n  mutation DashboardSetStripeCredentials($input: StripeCredentialsInput!) {\n    setStripeCredentials(input: $input) {\n      stripeWebhookUrl\n    }\n  }\n": typeof types.DashboardSetStripeCredentialsDocument,
    "\n  mutation DashboardSetSmtpCredentials($input: SmtpCredentialsInput!) {\n    setSmtpCredentials(input: $input) {\n      stripeWebhookUrl\n    }\n  }\n": typeof types.DashboardSetSmtpCredentialsDocument,
    "\n  mutation DashboardSetSmsCredentials($input: SmsCredentialsInput!) {\n    setSmsCredentials(input: $input) {\n      stripeWebhookUrl\n    }\n  }\n": typeof types.DashboardSetSmsCredentialsDocument,
    "\n  mutation DashboardClearProviderCredentials($provider: CredentialProvider!) {\n    clearProviderCredentials(provider: $provider) {\n      stripeWebhookUrl\n    }\n  }\n": typeof types.DashboardClearProviderCredentialsDocument,
    "\n  query DashboardUsers {\n    users {\n      id\n      email\n      role\n      createdAt\n      passwordChangedAt\n    }\n  }\n": typeof types.DashboardUsersDocument,
    "\n  mutation DashboardCreateUser($email: String!, $password: String!, $role: UserRole) {\n    createUser(email: $email, password: $password, role: $role) {\n      id\n      email\n    }\n  }\n": typeof types.DashboardCreateUserDocument,
    "\n  mutation DashboardUpdateUserRole($id: ID!, $role: UserRole!) {\n    updateUserRole(id: $id, role: $role) {\n      id\n      role\n    }\n  }\n": typeof types.DashboardUpdateUserRoleDocument,
    "\n  mutation DashboardRemoveUser($id: ID!) {\n    removeUser(id: $id) {\n      removedUserId\n    }\n  }\n": typeof types.DashboardRemoveUserDocument,
    "\n  query DashboardWebhook($id: ID!, $status: WebhookDeliveryStatus) {\n    webhook(id: $id) {\n      id\n      url\n      events\n      active\n      createdAt\n    }\n    webhookDeliveries(webhookId: $id, status: $status, first: 50) {\n      deliveries {\n        id\n        eventId\n        eventType\n        status\n        attemptCount\n        lastStatusCode\n        lastError\n        lastAttemptAt\n        nextAttemptAt\n        createdAt\n        attempts {\n          attemptedAt\n          statusCode\n          durationMs\n          error\n          requestHeaders {\n            name\n            value\n          }\n          requestBody\n          responseHeaders {\n            name\n            value\n          }\n          responseBody\n          responseBodyTruncated\n        }\n      }\n    }\n  }\n": typeof types.DashboardWebhookDocument,
    "\n  mutation DashboardRedeliver($webhookId: ID!, $eventId: ID!) {\n    redeliverWebhookEvent(webhookId: $webhookId, eventId: $eventId) {\n      delivery {\n        id\n        status\n      }\n    }\n  }\n": typeof types.DashboardRedeliverDocument,
    "\n  mutation DashboardUpdateWebhook($webhookId: ID!, $url: String, $events: [String!], $active: Boolean) {\n    updateWebhook(webhookId: $webhookId, url: $url, events: $events, active: $active) {\n      webhook {\n        id\n      }\n    }\n  }\n": typeof types.DashboardUpdateWebhookDocument,
    "\n  mutation DashboardRotateWebhookSecret($webhookId: ID!) {\n    rotateWebhookSecret(webhookId: $webhookId) {\n      secret\n      previousSecretExpiresAt\n    }\n  }\n": typeof types.DashboardRotateWebhookSecretDocument,
    "\n  query DashboardWebhooks {\n    webhooks {\n      id\n      url\n      events\n      active\n      createdAt\n    }\n  }\n": typeof types.DashboardWebhooksDocument,
    "\n  mutation DashboardCreateWebhook($url: String!, $events: [String!]!, $secret: String!) {\n    createWebhook(url: $url, events: $events, secret: $secret) {\n      webhook {\n        id\n      }\n    }\n  }\n": typeof types.DashboardCreateWebhookDocument,
    "\n  mutation DashboardDeleteWebhook($webhookId: ID!) {\n    deleteWebhook(webhookId: $webhookId) {\n      deleted\n    }\n  }\n": typeof types.DashboardDeleteWebhookDocument,
    "\n  mutation DashboardTestWebhook($webhookId: ID!) {\n    testWebhook(webhookId: $webhookId) {\n      eventId\n      success\n      statusCode\n      durationMs\n      error\n    }\n  }\n": typeof types.DashboardTestWebhookDocument,
    "\n  query DashboardRescheduleObjects($accommodationId: ID!) {\n    bookableObjects(accommodationId: $accommodationId) {\n      id\n      name\n    }\n  }\n": typeof types.DashboardRescheduleObjectsDocument,
    "\n  query DashboardBooking($id: ID!) {\n    booking(id: $id) {\n      id\n      reference\n      guestName\n      guestEmail\n      guestPhone\n      customerId\n      startTime\n      endTime\n      status\n      totalPrice\n      currency\n      refundAmount\n      createdAt\n      paymentUrl\n      noShowAt\n      cancellationReasonCode\n      cancellationReason\n      seriesId\n      object {\n        id\n        name\n        pricePerHour\n        accommodation {\n          id\n          name\n          timeZone\n        }\n      }\n    }\n  }\n": typeof types.DashboardBookingDocument,
    "\n  query DashboardBookingCredentials($bookingId: ID!) {\n    bookingCredentials(bookingId: $bookingId) {\n      validFrom\n      validUntil\n      qrCode {\n        svg\n      }\n      sms {\n        code\n        message\n      }\n    }\n  }\n": typeof types.DashboardBookingCredentialsDocument,
    "\n  query DashboardBookingAccess($bookingId: ID!) {\n    accessLog(bookingId: $bookingId, first: 50) {\n      id\n      deviceId\n      doorId\n      credentialType\n      allowed\n      reason\n      checkedAt\n    }\n  }\n": typeof types.DashboardBookingAccessDocument,
    "\n  query DashboardBookingWebhookDeliveries($bookingId: ID!) {\n    bookingWebhookDeliveries(bookingId: $bookingId, first: 50) {\n      deliveries {\n        id\n        webhookId\n        eventType\n        status\n        attemptCount\n        lastStatusCode\n        lastError\n        createdAt\n      }\n    }\n  }\n": typeof types.DashboardBookingWebhookDeliveriesDocument,
    "\n  query DashboardCancellationQuote($bookingId: ID!) {\n    cancellationQuote(bookingId: $bookingId) {\n      refundAmount\n      totalPrice\n      currency\n      policyName\n      amountPaid\n      moneyBack\n    }\n  }\n": typeof types.DashboardCancellationQuoteDocument,
    "\n  mutation DashboardUpdateBookingStatus(\n    $bookingId: ID!\n    $status: BookingStatus!\n    $reasonCode: CancellationReasonCode\n    $reason: String\n  ) {\n    updateBookingStatus(bookingId: $bookingId, status: $status, reasonCode: $reasonCode, reason: $reason) {\n      refundAmount\n      booking {\n        id\n        status\n        cancellationReasonCode\n        cancellationReason\n        payment {\n          amountRefunded\n        }\n      }\n    }\n  }\n": typeof types.DashboardUpdateBookingStatusDocument,
    "\n  mutation DashboardMarkNoShow($bookingId: ID!) {\n    markNoShow(bookingId: $bookingId) {\n      booking {\n        id\n        status\n        noShowAt\n      }\n    }\n  }\n": typeof types.DashboardMarkNoShowDocument,
    "\n  query DashboardBookings(\n    $page: Int\n    $pageSize: Int\n    $status: BookingStatus\n    $objectId: ID\n    $from: String\n    $to: String\n    $guestEmail: String\n    $search: String\n    $paymentStatus: PaymentStatus\n  ) {\n    bookingPage(\n      page: $page\n      pageSize: $pageSize\n      status: $status\n      objectId: $objectId\n      from: $from\n      to: $to\n      guestEmail: $guestEmail\n      search: $search\n      paymentStatus: $paymentStatus\n    ) {\n      bookings {\n        id\n        reference\n        guestName\n        guestEmail\n        objectName\n        startTime\n        endTime\n        status\n        totalPrice\n        currency\n        payment {\n          status\n        }\n        object {\n          id\n          accommodation {\n            id\n            timeZone\n          }\n        }\n      }\n      pagination {\n        page\n        pageSize\n        total\n      }\n    }\n  }\n": typeof types.DashboardBookingsDocument,
    "\n  query DashboardObjectOptions {\n    bookableObjects {\n      id\n      name\n      accommodation {\n        id\n        name\n        timeZone\n      }\n    }\n  }\n": typeof types.DashboardObjectOptionsDocument,
    "\n  query DashboardBookingNotifications($id: ID!) {\n    booking(id: $id) {\n      id\n      notifications {\n        id\n        channel\n        kind\n        status\n        recipient\n        attempts\n        lastError\n        sentAt\n        nextAttemptAt\n        createdAt\n      }\n    }\n  }\n": typeof types.DashboardBookingNotificationsDocument,
    "\n  mutation DashboardResendNotification($id: ID!) {\n    resendNotification(id: $id) {\n      id\n      status\n    }\n  }\n": typeof types.DashboardResendNotificationDocument,
    "\n  query DashboardBookingPayment($id: ID!) {\n    booking(id: $id) {\n      id\n      status\n      totalPrice\n      currency\n      payment {\n        status\n        amountPaid\n        amountRefunded\n        currency\n        provider\n        paidAt\n      }\n    }\n    paymentRecords(bookingId: $id) {\n      id\n      kind\n      provider\n      amount\n      currency\n      reason\n      note\n      actor\n      createdAt\n    }\n  }\n": typeof types.DashboardBookingPaymentDocument,
    "\n  mutation DashboardMarkBookingPaid($id: ID!, $amount: Int!, $note: String) {\n    markBookingPaid(id: $id, amount: $amount, note: $note) {\n      id\n      status\n      payment {\n        status\n      }\n    }\n  }\n": typeof types.DashboardMarkBookingPaidDocument,
    "\n  query DashboardBookingSeries($id: ID!) {\n    bookingSeries(id: $id) {\n      id\n      rule\n      status\n      occurrences(first: 100) {\n        totalCount\n        nodes {\n          id\n          startTime\n          endTime\n          status\n        }\n      }\n    }\n  }\n": typeof types.DashboardBookingSeriesDocument,
    "\n  mutation DashboardCancelSeries($id: ID!, $scope: BookingSeriesScope!, $fromBookingId: ID) {\n    cancelBookingSeries(id: $id, scope: $scope, fromBookingId: $fromBookingId) {\n      series {\n        id\n        status\n      }\n      cancelled {\n        id\n      }\n    }\n  }\n": typeof types.DashboardCancelSeriesDocument,
    "\n  query DashboardGuestLink($bookingId: ID!) {\n    guestLink(bookingId: $bookingId) {\n      bookingId\n      manageUrl\n    }\n  }\n": typeof types.DashboardGuestLinkDocument,
    "\n  mutation DashboardRevokeGuestLink($bookingId: ID!) {\n    revokeGuestLink(bookingId: $bookingId) {\n      bookingId\n      manageUrl\n    }\n  }\n": typeof types.DashboardRevokeGuestLinkDocument,
    "\n  query DashboardCalendarVenues {\n    accommodations {\n      id\n      name\n      timeZone\n      objects {\n        id\n        name\n        bookingRules {\n          minDurationMinutes\n          slotIncrementMinutes\n        }\n        openingHours {\n          specialDates {\n            date\n            closed\n            reason\n          }\n        }\n      }\n    }\n  }\n": typeof types.DashboardCalendarVenuesDocument,
    "\n  query DashboardCalendarSlots($date: String!, $objectId: ID!) {\n    availability(date: $date, objectId: $objectId) {\n      slots {\n        start\n        end\n        available\n      }\n    }\n  }\n": typeof types.DashboardCalendarSlotsDocument,
    "\n  query DashboardCalendarBookings($from: DateTime, $to: DateTime, $after: String) {\n    bookingsConnection(from: $from, to: $to, first: 100, after: $after) {\n      edges {\n        node {\n          id\n          objectId\n          guestName\n          guestEmail\n          startTime\n          endTime\n          status\n          totalPrice\n          currency\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.DashboardCalendarBookingsDocument,
    "\n  query DashboardDeskQuote($objectId: ID!, $startTime: DateTime!, $endTime: DateTime!) {\n    priceQuote(objectId: $objectId, startTime: $startTime, endTime: $endTime) {\n      totalPrice\n      currency\n      breakdown\n    }\n  }\n": typeof types.DashboardDeskQuoteDocument,
    "\n  mutation DashboardDeskCreateBooking(\n    $objectId: ID!\n    $guestName: String!\n    $guestEmail: String!\n    $guestPhone: String\n    $startTime: DateTime!\n    $endTime: DateTime!\n    $status: BookingStatus\n  ) {\n    createBooking(\n      objectId: $objectId\n      guestName: $guestName\n      guestEmail: $guestEmail\n      guestPhone: $guestPhone\n      startTime: $startTime\n      endTime: $endTime\n      status: $status\n    ) {\n      booking {\n        id\n        status\n        guestName\n        startTime\n        endTime\n        totalPrice\n        currency\n      }\n    }\n  }\n": typeof types.DashboardDeskCreateBookingDocument,
    "\n  mutation DashboardRescheduleBooking($bookingId: ID!, $startTime: DateTime!, $endTime: DateTime!, $objectId: ID) {\n    rescheduleBooking(bookingId: $bookingId, startTime: $startTime, endTime: $endTime, objectId: $objectId) {\n      booking {\n        id\n        objectId\n        startTime\n        endTime\n        totalPrice\n        currency\n      }\n      previous {\n        totalPrice\n      }\n    }\n  }\n": typeof types.DashboardRescheduleBookingDocument,
    "\n  mutation DashboardUpdateBookingGuest($bookingId: ID!, $guestName: String, $guestEmail: String, $guestPhone: String) {\n    updateBookingGuest(bookingId: $bookingId, guestName: $guestName, guestEmail: $guestEmail, guestPhone: $guestPhone) {\n      booking {\n        id\n        guestName\n        guestEmail\n        guestPhone\n      }\n    }\n  }\n": typeof types.DashboardUpdateBookingGuestDocument,
    "\n  query DashboardSeriesPreview($objectId: ID!, $startTime: DateTime!, $endTime: DateTime!, $rule: String!) {\n    previewBookingSeries(objectId: $objectId, startTime: $startTime, endTime: $endTime, rule: $rule) {\n      rule\n      availableCount\n      conflictCount\n      totalPrice\n      occurrences {\n        index\n        startTime\n        endTime\n        available\n        conflictCode\n        conflictMessage\n        totalPrice\n        currency\n      }\n    }\n  }\n": typeof types.DashboardSeriesPreviewDocument,
    "\n  mutation DashboardCreateSeries(\n    $objectId: ID!\n    $guestName: String!\n    $guestEmail: String!\n    $guestPhone: String\n    $startTime: DateTime!\n    $endTime: DateTime!\n    $rule: String!\n    $status: BookingStatus\n  ) {\n    createBookingSeries(\n      objectId: $objectId\n      guestName: $guestName\n      guestEmail: $guestEmail\n      guestPhone: $guestPhone\n      startTime: $startTime\n      endTime: $endTime\n      rule: $rule\n      status: $status\n    ) {\n      series {\n        id\n        rule\n      }\n      bookings {\n        id\n        guestName\n        startTime\n        endTime\n        totalPrice\n        currency\n        status\n      }\n      conflicts {\n        index\n        startTime\n      }\n    }\n  }\n": typeof types.DashboardCreateSeriesDocument,
    "\n  query DashboardCatalog {\n    accommodations {\n      id\n      name\n      address\n      timeZone\n      objects {\n        id\n        name\n        pricePerHour\n      }\n    }\n    doors {\n      id\n      name\n      gpioPin\n      behavior\n      unlockDurationSeconds\n      objectIds\n    }\n  }\n": typeof types.DashboardCatalogDocument,
    "\n  mutation DashboardCreateAccommodation($name: String!, $address: String!, $timeZone: String!) {\n    createAccommodation(name: $name, address: $address, timeZone: $timeZone) {\n      id\n    }\n  }\n": typeof types.DashboardCreateAccommodationDocument,
    "\n  mutation DashboardUpdateAccommodation($id: ID!, $name: String, $address: String, $timeZone: String) {\n    updateAccommodation(id: $id, name: $name, address: $address, timeZone: $timeZone) {\n      id\n    }\n  }\n": typeof types.DashboardUpdateAccommodationDocument,
    "\n  mutation DashboardDeleteAccommodation($id: ID!) {\n    deleteAccommodation(id: $id)\n  }\n": typeof types.DashboardDeleteAccommodationDocument,
    "\n  mutation DashboardCreateObject($accommodationId: ID!, $name: String!, $pricePerHour: Int!) {\n    createObject(accommodationId: $accommodationId, name: $name, pricePerHour: $pricePerHour) {\n      id\n    }\n  }\n": typeof types.DashboardCreateObjectDocument,
    "\n  mutation DashboardDeleteObject($id: ID!) {\n    deleteObject(id: $id)\n  }\n": typeof types.DashboardDeleteObjectDocument,
    "\n  mutation DashboardCreateDoor(\n    $name: String!\n    $gpioPin: Int!\n    $behavior: String\n    $unlockDurationSeconds: Int\n    $objectIds: [ID!]\n  ) {\n    createDoor(\n      name: $name\n      gpioPin: $gpioPin\n      behavior: $behavior\n      unlockDurationSeconds: $unlockDurationSeconds\n      objectIds: $objectIds\n    ) {\n      id\n    }\n  }\n": typeof types.DashboardCreateDoorDocument,
    "\n  mutation DashboardUpdateDoor(\n    $id: ID!\n    $name: String\n    $gpioPin: Int\n    $behavior: String\n    $unlockDurationSeconds: Int\n    $objectIds: [ID!]\n  ) {\n    updateDoor(\n      id: $id\n      name: $name\n      gpioPin: $gpioPin\n      behavior: $behavior\n      unlockDurationSeconds: $unlockDurationSeconds\n      objectIds: $objectIds\n    ) {\n      id\n    }\n  }\n": typeof types.DashboardUpdateDoorDocument,
    "\n  mutation DashboardDeleteDoor($id: ID!) {\n    deleteDoor(id: $id)\n  }\n": typeof types.DashboardDeleteDoorDocument,
    "\n  query DashboardObject($id: ID!) {\n    bookableObject(id: $id) {\n      id\n      name\n      pricePerHour\n      accommodation {\n        id\n        name\n        timeZone\n      }\n      openingHours {\n        schedule {\n          monday {\n            open\n            close\n          }\n          tuesday {\n            open\n            close\n          }\n          wednesday {\n            open\n            close\n          }\n          thursday {\n            open\n            close\n          }\n          friday {\n            open\n            close\n          }\n          saturday {\n            open\n            close\n          }\n          sunday {\n            open\n            close\n          }\n        }\n        specialDates {\n          date\n          closed\n          reason\n          open\n          close\n        }\n      }\n      bookingRules {\n        minDurationMinutes\n        maxDurationMinutes\n        slotIncrementMinutes\n        minAdvanceMinutes\n        maxAdvanceDays\n        bufferMinutes\n      }\n    }\n  }\n": typeof types.DashboardObjectDocument,
    "\n  mutation DashboardUpdateObject($id: ID!, $name: String, $pricePerHour: Int) {\n    updateObject(id: $id, name: $name, pricePerHour: $pricePerHour) {\n      id\n    }\n  }\n": typeof types.DashboardUpdateObjectDocument,
    "\n  mutation DashboardSetOpeningHours($objectId: ID!, $schedule: WeeklyScheduleInput!) {\n    setOpeningHours(objectId: $objectId, schedule: $schedule) {\n      specialDates {\n        date\n      }\n    }\n  }\n": typeof types.DashboardSetOpeningHoursDocument,
    "\n  mutation DashboardSetSpecialDate(\n    $objectId: ID!\n    $date: String!\n    $closed: Boolean!\n    $reason: String\n    $open: String\n    $close: String\n  ) {\n    setSpecialDate(objectId: $objectId, date: $date, closed: $closed, reason: $reason, open: $open, close: $close) {\n      specialDates {\n        date\n      }\n    }\n  }\n": typeof types.DashboardSetSpecialDateDocument,
    "\n  mutation DashboardRemoveSpecialDate($objectId: ID!, $date: String!) {\n    removeSpecialDate(objectId: $objectId, date: $date) {\n      specialDates {\n        date\n      }\n    }\n  }\n": typeof types.DashboardRemoveSpecialDateDocument,
    "\n  mutation DashboardSetBookingRules($objectId: ID!, $rules: BookingRulesInput!) {\n    setBookingRules(objectId: $objectId, rules: $rules) {\n      minDurationMinutes\n    }\n  }\n": typeof types.DashboardSetBookingRulesDocument,
    "\n  mutation DashboardDeleteObjectFromPage($id: ID!) {\n    deleteObject(id: $id)\n  }\n": typeof types.DashboardDeleteObjectFromPageDocument,
    "\n  query DashboardCustomer($id: ID!) {\n    customer(id: $id) {\n      id\n      name\n      email\n      phone\n      notes\n      marketingConsent\n      marketingConsentAt\n      erasedAt\n      createdAt\n      bookingCount\n      noShowCount\n      totalSpent {\n        currency\n        paid\n        refunded\n        net\n      }\n      bookings(first: 50) {\n        totalCount\n        nodes {\n          id\n          reference\n          objectName\n          startTime\n          endTime\n          status\n          totalPrice\n          currency\n        }\n      }\n    }\n  }\n": typeof types.DashboardCustomerDocument,
    "\n  mutation DashboardUpdateCustomer(\n    $id: ID!\n    $name: String\n    $email: String\n    $phone: String\n    $notes: String\n    $marketingConsent: Boolean\n  ) {\n    updateCustomer(\n      id: $id\n      name: $name\n      email: $email\n      phone: $phone\n      notes: $notes\n      marketingConsent: $marketingConsent\n    ) {\n      id\n    }\n  }\n": typeof types.DashboardUpdateCustomerDocument,
    "\n  mutation DashboardMergeCustomers($targetId: ID!, $sourceIds: [ID!]!) {\n    mergeCustomers(targetId: $targetId, sourceIds: $sourceIds) {\n      movedBookings\n      mergedIds\n    }\n  }\n": typeof types.DashboardMergeCustomersDocument,
    "\n  mutation DashboardEraseCustomer($id: ID!) {\n    eraseCustomer(id: $id) {\n      id\n      erasedAt\n    }\n  }\n": typeof types.DashboardEraseCustomerDocument,
    "\n  query DashboardCustomerDuplicates($search: String) {\n    customers(search: $search, first: 10) {\n      id\n      name\n      email\n      phone\n      bookingCount\n    }\n  }\n": typeof types.DashboardCustomerDuplicatesDocument,
    "\n  query DashboardCustomers($search: String, $first: Int, $after: String) {\n    customersConnection(search: $search, first: $first, after: $after) {\n      totalCount\n      nodes {\n        id\n        name\n        email\n        phone\n        bookingCount\n        noShowCount\n        erasedAt\n        createdAt\n        totalSpent {\n          currency\n          net\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": typeof types.DashboardCustomersDocument,
    "\n  query DashboardCancellationPolicies {\n    cancellationPolicies {\n      id\n      name\n      isDefault\n      tiers {\n        hoursBeforeStart\n        refundPercent\n      }\n    }\n  }\n": typeof types.DashboardCancellationPoliciesDocument,
    "\n  mutation DashboardCreateCancellationPolicy($name: String!, $isDefault: Boolean, $tiers: [CancellationTierInput!]!) {\n    createCancellationPolicy(name: $name, isDefault: $isDefault, tiers: $tiers) {\n      id\n    }\n  }\n": typeof types.DashboardCreateCancellationPolicyDocument,
    "\n  mutation DashboardSetDefaultPolicy($id: ID!) {\n    setDefaultCancellationPolicy(id: $id) {\n      id\n    }\n  }\n": typeof types.DashboardSetDefaultPolicyDocument,
    "\n  mutation DashboardDeleteCancellationPolicy($id: ID!) {\n    deleteCancellationPolicy(id: $id)\n  }\n": typeof types.DashboardDeleteCancellationPolicyDocument,
    "\n  query DashboardPreviewObjects {\n    bookableObjects {\n      id\n      name\n      accommodation {\n        id\n        name\n        timeZone\n      }\n    }\n  }\n": typeof types.DashboardPreviewObjectsDocument,
    "\n  query DashboardPriceQuote($objectId: ID!, $startTime: DateTime!, $endTime: DateTime!) {\n    priceQuote(objectId: $objectId, startTime: $startTime, endTime: $endTime) {\n      basePrice\n      adjustments {\n        rule\n        amount\n      }\n      totalPrice\n      currency\n      breakdown\n    }\n  }\n": typeof types.DashboardPriceQuoteDocument,
    "\n  query DashboardPricingRules {\n    pricingRules {\n      id\n      name\n      type\n      active\n      objectIds\n      percent\n      startTime\n      endTime\n      weekdays\n      minDurationMinutes\n      minDaysInAdvance\n    }\n  }\n": typeof types.DashboardPricingRulesDocument,
    "\n  query DashboardPricingRuleObjects {\n    accommodations {\n      id\n      name\n      objects {\n        id\n        name\n      }\n    }\n  }\n": typeof types.DashboardPricingRuleObjectsDocument,
    "\n  mutation DashboardCreatePricingRule(\n    $name: String!\n    $type: String!\n    $percent: Int!\n    $active: Boolean\n    $objectIds: [ID!]\n    $startTime: String\n    $endTime: String\n    $weekdays: [String!]\n    $minDurationMinutes: Int\n    $minDaysInAdvance: Int\n  ) {\n    createPricingRule(\n      name: $name\n      type: $type\n      percent: $percent\n      active: $active\n      objectIds: $objectIds\n      startTime: $startTime\n      endTime: $endTime\n      weekdays: $weekdays\n      minDurationMinutes: $minDurationMinutes\n      minDaysInAdvance: $minDaysInAdvance\n    ) {\n      pricingRule {\n        id\n      }\n    }\n  }\n": typeof types.DashboardCreatePricingRuleDocument,
    "\n  mutation DashboardUpdatePricingRule(\n    $id: ID!\n    $name: String\n    $type: String\n    $percent: Int\n    $active: Boolean\n    $objectIds: [ID!]\n    $startTime: String\n    $endTime: String\n    $weekdays: [String!]\n    $minDurationMinutes: Int\n    $minDaysInAdvance: Int\n  ) {\n    updatePricingRule(\n      id: $id\n      name: $name\n      type: $type\n      percent: $percent\n      active: $active\n      objectIds: $objectIds\n      startTime: $startTime\n      endTime: $endTime\n      weekdays: $weekdays\n      minDurationMinutes: $minDurationMinutes\n      minDaysInAdvance: $minDaysInAdvance\n    ) {\n      id\n      active\n    }\n  }\n": typeof types.DashboardUpdatePricingRuleDocument,
    "\n  mutation DashboardDeactivatePricingRule($id: ID!) {\n    deactivatePricingRule(id: $id) {\n      id\n      active\n    }\n  }\n": typeof types.DashboardDeactivatePricingRuleDocument,
    "\n  mutation DashboardDeletePricingRule($id: ID!) {\n    deletePricingRule(id: $id)\n  }\n": typeof types.DashboardDeletePricingRuleDocument,
    "\n  query DashboardReportObjects {\n    bookableObjects {\n      id\n      name\n      accommodation {\n        id\n        timeZone\n      }\n    }\n  }\n": typeof types.DashboardReportObjectsDocument,
    "\n  query DashboardReports(\n    $from: LocalDate!\n    $to: LocalDate!\n    $period: ReportPeriod\n    $objectIds: [ID!]\n    $timeZone: String\n    $cashUpDate: LocalDate!\n  ) {\n    occupancyReport(from: $from, to: $to, objectIds: $objectIds, timeZone: $timeZone) {\n      cells {\n        objectId\n        weekday\n        hour\n        bookedMinutes\n        openMinutes\n      }\n      objects {\n        objectId\n        objectName\n        bookedMinutes\n        openMinutes\n        occupancy\n      }\n    }\n    revenueReport(from: $from, to: $to, period: $period, objectIds: $objectIds, timeZone: $timeZone) {\n      rows {\n        periodStart\n        currency\n        bookings\n        revenue\n      }\n      byObject {\n        objectId\n        objectName\n        currency\n        bookings\n        revenue\n      }\n      totals {\n        currency\n        bookings\n        revenue\n      }\n    }\n    paymentsReport(from: $from, to: $to, period: $period, objectIds: $objectIds, timeZone: $timeZone) {\n      rows {\n        periodStart\n        currency\n        payments\n        paymentCount\n        refunds\n        refundCount\n        net\n      }\n      totals {\n        currency\n        payments\n        refunds\n        net\n      }\n    }\n    cashUpReport(date: $cashUpDate, objectIds: $objectIds, timeZone: $timeZone) {\n      date\n      lines {\n        currency\n        online\n        onlineCount\n        atVenue\n        atVenueCount\n        refundsOnline\n        refundsAtVenue\n        refundCount\n        net\n        cashInHand\n      }\n    }\n    noShowReport(from: $from, to: $to, objectIds: $objectIds, timeZone: $timeZone) {\n      byObject {\n        objectId\n        objectName\n        bookings\n        noShows\n        rate\n      }\n      bookings\n      noShows\n      rate\n    }\n  }\n": typeof types.DashboardReportsDocument,
};
const documents: Documents = {
    "\n  query DashboardDoorNames {\n    doors {\n      id\n      name\n    }\n  }\n": types.DashboardDoorNamesDocument,
    "\n  mutation DashboardChangePassword($currentPassword: String!, $newPassword: String!) {\n    changePassword(currentPassword: $currentPassword, newPassword: $newPassword) {\n      signedOutSessions\n    }\n  }\n": types.DashboardChangePasswordDocument,
    "\n  query DashboardOverviewAccommodations {\n    accommodations {\n      id\n      name\n      timeZone\n    }\n  }\n": types.DashboardOverviewAccommodationsDocument,
    "\n  query DashboardOverviewToday($from: String!, $to: String!) {\n    bookingPage(from: $from, to: $to, pageSize: 100) {\n      bookings {\n        id\n        guestName\n        objectName\n        startTime\n        endTime\n        status\n        object {\n          id\n          accommodationId\n        }\n      }\n      pagination {\n        total\n      }\n    }\n  }\n": types.DashboardOverviewTodayDocument,
    "\n  query DashboardOverviewDevices {\n    devices {\n      id\n      name\n      status\n      online\n      lastHeartbeatAt\n    }\n  }\n": types.DashboardOverviewDevicesDocument,
    "\n  query DashboardOverviewAccess {\n    accessLog(first: 100) {\n      id\n      deviceId\n      doorId\n      allowed\n      reason\n      checkedAt\n    }\n  }\n": types.DashboardOverviewAccessDocument,
    "\n  query DashboardOverviewWebhooks {\n    webhooks {\n      id\n      url\n      active\n    }\n  }\n": types.DashboardOverviewWebhooksDocument,
    "\n  query DashboardOverviewFailedDeliveries($webhookId: ID!) {\n    webhookDeliveries(webhookId: $webhookId, status: FAILED, first: 5) {\n      deliveries {\n        id\n        eventType\n        lastStatusCode\n        lastError\n        lastAttemptAt\n      }\n    }\n  }\n": types.DashboardOverviewFailedDeliveriesDocument,
    "\n  query DashboardPaymentIssues {\n    paymentIssues {\n      id\n      kind\n      bookingId\n      amount\n      currency\n      detail\n      since\n      retryable\n    }\n  }\n": types.DashboardPaymentIssuesDocument,
    "\n  mutation DashboardRetryRefund($bookingId: ID!) {\n    retryRefund(bookingId: $bookingId) {\n      id\n    }\n  }\n": types.DashboardRetryRefundDocument,
    "\n  mutation DashboardAcknowledgePaymentIssue($id: ID!) {\n    acknowledgePaymentIssue(id: $id) {\n      id\n      acknowledgedAt\n    }\n  }\n": types.DashboardAcknowledgePaymentIssueDocument,
    "\n  query DashboardApiKeys {\n    apiKeys {\n      id\n      name\n      prefix\n      scopes\n      rateLimitPerMinute\n      createdAt\n      lastUsedAt\n      revokedAt\n    }\n  }\n": types.DashboardApiKeysDocument,
    "\n  mutation DashboardCreateApiKey($name: String!, $scopes: [String!]!, $rateLimitPerMinute: Int) {\n    createApiKey(name: $name, scopes: $scopes, rateLimitPerMinute: $rateLimitPerMinute) {\n      apiKey\n      apiKeyInfo {\n        id\n        name\n      }\n    }\n  }\n": types.DashboardCreateApiKeyDocument,
    "\n  mutation DashboardRevokeApiKey($id: ID!) {\n    revokeApiKey(id: $id) {\n      id\n      revokedAt\n    }\n  }\n": types.DashboardRevokeApiKeyDocument,
    "\n  query DashboardAuditLog($first: Int, $after: String) {\n    auditLog(first: $first, after: $after) {\n      edges {\n        cursor\n        node {\n          id\n          occurredAt\n          action\n          actor {\n            type\n            label\n          }\n          targetType\n          targetId\n          ipAddress\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.DashboardAuditLogDocument,
    "\n  query DashboardBookingPage {\n    bookingPageSettings {\n      saved\n      enabled\n      slug\n      url\n      paymentMode\n      onlinePaymentAvailable\n      allowedOrigins\n      logo\n      accentColour\n      defaultLocale\n      vatRateBasisPoints\n      updatedAt\n      texts {\n        en {\n          intro\n          cancellationPolicy\n          afterBooking\n        }\n        de {\n          intro\n          cancellationPolicy\n          afterBooking\n        }\n      }\n    }\n    viewer {\n      id\n      name\n    }\n    bookableObjects {\n      id\n      name\n      published\n      accommodation {\n        name\n      }\n    }\n    apiKeys {\n      id\n      kind\n      prefix\n      publishableKey\n      createdAt\n      revokedAt\n    }\n  }\n": types.DashboardBookingPageDocument,
    "\n  mutation DashboardSaveBookingPage($input: BookingPageSettingsInput!) {\n    updateBookingPageSettings(input: $input) {\n      saved\n      slug\n    }\n  }\n": types.DashboardSaveBookingPageDocument,
    "\n  mutation DashboardPublishObjects($ids: [ID!]!, $published: Boolean!) {\n    publishObjects(ids: $ids, published: $published) {\n      objects {\n        id\n        published\n      }\n    }\n  }\n": types.DashboardPublishObjectsDocument,
    "\n  mutation DashboardCreatePublishableKey {\n    createPublishableKey {\n      apiKey\n    }\n  }\n": types.DashboardCreatePublishableKeyDocument,
    "\n  mutation DashboardRevokePublishableKey($id: ID!) {\n    revokeApiKey(id: $id) {\n      id\n    }\n  }\n": types.DashboardRevokePublishableKeyDocument,
    "\n  query DashboardDevice($id: ID!) {\n    device(id: $id) {\n      id\n      name\n      status\n      online\n      lastHeartbeatAt\n      serial\n      firmwareVersion\n      doors {\n        id\n        name\n      }\n    }\n    deviceCommands(deviceId: $id, first: 100) {\n      command {\n        id\n        type\n        status\n        payload\n        created_at\n        expires_at\n      }\n      doorId\n      deliveredAt\n      completedAt\n      result\n      error\n    }\n    doors {\n      id\n      name\n    }\n  }\n": types.DashboardDeviceDocument,
    "\n  query DashboardDevices {\n    devices {\n      id\n      name\n      status\n      online\n      lastHeartbeatAt\n      serial\n      firmwareVersion\n      keyPrefix\n      activationExpiresAt\n      createdAt\n      telemetry {\n        cpuPercent\n        memoryPercent\n        wifiSignalDbm\n        doorStates {\n          doorId\n          state\n        }\n      }\n      doors {\n        id\n        name\n        gpioPin\n      }\n    }\n    doors {\n      id\n      name\n    }\n  }\n": types.DashboardDevicesDocument,
    "\n  mutation DashboardRegisterDevice($name: String!, $doorIds: [ID!]!) {\n    registerDevice(name: $name, doorIds: $doorIds) {\n      activationCode\n      device {\n        id\n        name\n      }\n    }\n  }\n": types.DashboardRegisterDeviceDocument,
    "\n  mutation DashboardSetDeviceDoors($id: ID!, $doorIds: [ID!]!) {\n    setDeviceDoors(id: $id, doorIds: $doorIds) {\n      id\n    }\n  }\n": types.DashboardSetDeviceDoorsDocument,
    "\n  mutation DashboardRevokeDevice($id: ID!) {\n    revokeDevice(id: $id) {\n      id\n      status\n    }\n  }\n": types.DashboardRevokeDeviceDocument,
    "\n  mutation DashboardQueueUnlock($deviceId: ID!, $doorId: ID!) {\n    createDeviceCommand(deviceId: $deviceId, type: \"unlock\", doorId: $doorId) {\n      command {\n        id\n        status\n        expires_at\n      }\n    }\n  }\n": types.DashboardQueueUnlockDocument,
    "\n  query DashboardUserInvitations {\n    userInvitations {\n      id\n      email\n      role\n      invitedBy\n      createdAt\n      expiresAt\n      expired\n    }\n  }\n": types.DashboardUserInvitationsDocument,
    "\n  mutation DashboardInviteUser($email: String!, $role: UserRole, $locale: Locale) {\n    inviteUser(email: $email, role: $role, locale: $locale) {\n      id\n      email\n    }\n  }\n": types.DashboardInviteUserDocument,
    "\n  mutation DashboardRevokeUserInvitation($id: ID!) {\n    revokeUserInvitation(id: $id) {\n      revokedInvitationId\n    }\n  }\n": types.DashboardRevokeUserInvitationDocument,
    "\n  query DashboardNotificationSettings {\n    notificationSettings {\n      emailEnabled\n      smsEnabled\n      senderName\n      replyTo\n      reminderHoursBefore\n      emailAvailable\n      smsAvailable\n    }\n  }\n": types.DashboardNotificationSettingsDocument,
    "\n  mutation DashboardUpdateNotificationSettings($input: UpdateNotificationSettingsInput!) {\n    updateNotificationSettings(input: $input) {\n      emailEnabled\n      smsEnabled\n      senderName\n      replyTo\n      reminderHoursBefore\n    }\n  }\n": types.DashboardUpdateNotificationSettingsDocument,
    "\n  mutation DashboardSendTestNotificationEmail($to: String!) {\n    sendTestNotificationEmail(to: $to) {\n      success\n      error\n    }\n  }\n": types.DashboardSendTestNotificationEmailDocument,
    "\n  query DashboardOAuthApps {\n    oauthApps {\n      clientId\n      name\n      redirectUris\n      scopes\n      public\n      createdAt\n      secretRotatedAt\n      authorizedTenantCount\n    }\n  }\n": types.DashboardOAuthAppsDocument,
    "\n  mutation DashboardCreateOAuthApp($name: String!, $redirectUris: [String!]!, $scopes: [String!]!, $public: Boolean) {\n    createOAuthApp(name: $name, redirectUris: $redirectUris, scopes: $scopes, public: $public) {\n      clientSecret\n      app {\n        clientId\n        name\n      }\n    }\n  }\n": types.DashboardCreateOAuthAppDocument,
    "\n  mutation DashboardRotateOAuthAppSecret($clientId: ID!) {\n    rotateOAuthAppSecret(clientId: $clientId) {\n      clientSecret\n      app {\n        clientId\n        name\n      }\n    }\n  }\n": types.DashboardRotateOAuthAppSecretDocument,
    "\n  mutation DashboardDeleteOAuthApp($clientId: ID!) {\n    deleteOAuthApp(clientId: $clientId)\n  }\n": types.DashboardDeleteOAuthAppDocument,
    "\n  query DashboardConnectedApps {\n    connectedApps {\n      clientId\n      name\n      ownerTenantName\n      scopes\n      authorizedAt\n      lastUsedAt\n    }\n  }\n": types.DashboardConnectedAppsDocument,
    "\n  mutation DashboardRevokeConnectedApp($clientId: ID!) {\n    revokeConnectedApp(clientId: $clientId)\n  }\n": types.DashboardRevokeConnectedAppDocument,
    "\n  query DashboardProviderCredentials {\n    providerCredentials {\n      stripe {\n        set\n        hint\n        source\n        updatedAt\n      }\n      smtp {\n        set\n        hint\n        source\n        updatedAt\n      }\n      sms {\n        set\n        hint\n        source\n        updatedAt\n      }\n      stripeWebhookUrl\n    }\n  }\n": types.DashboardProviderCredentialsDocument,
    "\n  mutation DashboardSetStripeCredentials($input: StripeCredentialsInput!) {\n    setStripeCredentials(input: $input) {\n      stripeWebhookUrl\n    }\n  }\n": types.DashboardSetStripeCredentialsDocument,
    "\n  mutation DashboardSetSmtpCredentials($input: SmtpCredentialsInput!) {\n    setSmtpCredentials(input: $input) {\n      stripeWebhookUrl\n    }\n  }\n": types.DashboardSetSmtpCredentialsDocument,
    "\n  mutation DashboardSetSmsCredentials($input: SmsCredentialsInput!) {\n    setSmsCredentials(input: $input) {\n      stripeWebhookUrl\n    }\n  }\n": types.DashboardSetSmsCredentialsDocument,
    "\n  mutation DashboardClearProviderCredentials($provider: CredentialProvider!) {\n    clearProviderCredentials(provider: $provider) {\n      stripeWebhookUrl\n    }\n  }\n": types.DashboardClearProviderCredentialsDocument,
    "\n  query DashboardUsers {\n    users {\n      id\n      email\n      role\n      createdAt\n      passwordChangedAt\n    }\n  }\n": types.DashboardUsersDocument,
    "\n  mutation DashboardCreateUser($email: String!, $password: String!, $role: UserRole) {\n    createUser(email: $email, password: $password, role: $role) {\n      id\n      email\n    }\n  }\n": types.DashboardCreateUserDocument,
    "\n  mutation DashboardUpdateUserRole($id: ID!, $role: UserRole!) {\n    updateUserRole(id: $id, role: $role) {\n      id\n      role\n    }\n  }\n": types.DashboardUpdateUserRoleDocument,
    "\n  mutation DashboardRemoveUser($id: ID!) {\n    removeUser(id: $id) {\n      removedUserId\n    }\n  }\n": types.DashboardRemoveUserDocument,
    "\n  query DashboardWebhook($id: ID!, $status: WebhookDeliveryStatus) {\n    webhook(id: $id) {\n      id\n      url\n      events\n      active\n      createdAt\n    }\n    webhookDeliveries(webhookId: $id, status: $status, first: 50) {\n      deliveries {\n        id\n        eventId\n        eventType\n        status\n        attemptCount\n        lastStatusCode\n        lastError\n        lastAttemptAt\n        nextAttemptAt\n        createdAt\n        attempts {\n          attemptedAt\n          statusCode\n          durationMs\n          error\n          requestHeaders {\n            name\n            value\n          }\n          requestBody\n          responseHeaders {\n            name\n            value\n          }\n          responseBody\n          responseBodyTruncated\n        }\n      }\n    }\n  }\n": types.DashboardWebhookDocument,
    "\n  mutation DashboardRedeliver($webhookId: ID!, $eventId: ID!) {\n    redeliverWebhookEvent(webhookId: $webhookId, eventId: $eventId) {\n      delivery {\n        id\n        status\n      }\n    }\n  }\n": types.DashboardRedeliverDocument,
    "\n  mutation DashboardUpdateWebhook($webhookId: ID!, $url: String, $events: [String!], $active: Boolean) {\n    updateWebhook(webhookId: $webhookId, url: $url, events: $events, active: $active) {\n      webhook {\n        id\n      }\n    }\n  }\n": types.DashboardUpdateWebhookDocument,
    "\n  mutation DashboardRotateWebhookSecret($webhookId: ID!) {\n    rotateWebhookSecret(webhookId: $webhookId) {\n      secret\n      previousSecretExpiresAt\n    }\n  }\n": types.DashboardRotateWebhookSecretDocument,
    "\n  query DashboardWebhooks {\n    webhooks {\n      id\n      url\n      events\n      active\n      createdAt\n    }\n  }\n": types.DashboardWebhooksDocument,
    "\n  mutation DashboardCreateWebhook($url: String!, $events: [String!]!, $secret: String!) {\n    createWebhook(url: $url, events: $events, secret: $secret) {\n      webhook {\n        id\n      }\n    }\n  }\n": types.DashboardCreateWebhookDocument,
    "\n  mutation DashboardDeleteWebhook($webhookId: ID!) {\n    deleteWebhook(webhookId: $webhookId) {\n      deleted\n    }\n  }\n": types.DashboardDeleteWebhookDocument,
    "\n  mutation DashboardTestWebhook($webhookId: ID!) {\n    testWebhook(webhookId: $webhookId) {\n      eventId\n      success\n      statusCode\n      durationMs\n      error\n    }\n  }\n": types.DashboardTestWebhookDocument,
    "\n  query DashboardRescheduleObjects($accommodationId: ID!) {\n    bookableObjects(accommodationId: $accommodationId) {\n      id\n      name\n    }\n  }\n": types.DashboardRescheduleObjectsDocument,
    "\n  query DashboardBooking($id: ID!) {\n    booking(id: $id) {\n      id\n      reference\n      guestName\n      guestEmail\n      guestPhone\n      customerId\n      startTime\n      endTime\n      status\n      totalPrice\n      currency\n      refundAmount\n      createdAt\n      paymentUrl\n      noShowAt\n      cancellationReasonCode\n      cancellationReason\n      seriesId\n      object {\n        id\n        name\n        pricePerHour\n        accommodation {\n          id\n          name\n          timeZone\n        }\n      }\n    }\n  }\n": types.DashboardBookingDocument,
    "\n  query DashboardBookingCredentials($bookingId: ID!) {\n    bookingCredentials(bookingId: $bookingId) {\n      validFrom\n      validUntil\n      qrCode {\n        svg\n      }\n      sms {\n        code\n        message\n      }\n    }\n  }\n": types.DashboardBookingCredentialsDocument,
    "\n  query DashboardBookingAccess($bookingId: ID!) {\n    accessLog(bookingId: $bookingId, first: 50) {\n      id\n      deviceId\n      doorId\n      credentialType\n      allowed\n      reason\n      checkedAt\n    }\n  }\n": types.DashboardBookingAccessDocument,
    "\n  query DashboardBookingWebhookDeliveries($bookingId: ID!) {\n    bookingWebhookDeliveries(bookingId: $bookingId, first: 50) {\n      deliveries {\n        id\n        webhookId\n        eventType\n        status\n        attemptCount\n        lastStatusCode\n        lastError\n        createdAt\n      }\n    }\n  }\n": types.DashboardBookingWebhookDeliveriesDocument,
    "\n  query DashboardCancellationQuote($bookingId: ID!) {\n    cancellationQuote(bookingId: $bookingId) {\n      refundAmount\n      totalPrice\n      currency\n      policyName\n      amountPaid\n      moneyBack\n    }\n  }\n": types.DashboardCancellationQuoteDocument,
    "\n  mutation DashboardUpdateBookingStatus(\n    $bookingId: ID!\n    $status: BookingStatus!\n    $reasonCode: CancellationReasonCode\n    $reason: String\n  ) {\n    updateBookingStatus(bookingId: $bookingId, status: $status, reasonCode: $reasonCode, reason: $reason) {\n      refundAmount\n      booking {\n        id\n        status\n        cancellationReasonCode\n        cancellationReason\n        payment {\n          amountRefunded\n        }\n      }\n    }\n  }\n": types.DashboardUpdateBookingStatusDocument,
    "\n  mutation DashboardMarkNoShow($bookingId: ID!) {\n    markNoShow(bookingId: $bookingId) {\n      booking {\n        id\n        status\n        noShowAt\n      }\n    }\n  }\n": types.DashboardMarkNoShowDocument,
    "\n  query DashboardBookings(\n    $page: Int\n    $pageSize: Int\n    $status: BookingStatus\n    $objectId: ID\n    $from: String\n    $to: String\n    $guestEmail: String\n    $search: String\n    $paymentStatus: PaymentStatus\n  ) {\n    bookingPage(\n      page: $page\n      pageSize: $pageSize\n      status: $status\n      objectId: $objectId\n      from: $from\n      to: $to\n      guestEmail: $guestEmail\n      search: $search\n      paymentStatus: $paymentStatus\n    ) {\n      bookings {\n        id\n        reference\n        guestName\n        guestEmail\n        objectName\n        startTime\n        endTime\n        status\n        totalPrice\n        currency\n        payment {\n          status\n        }\n        object {\n          id\n          accommodation {\n            id\n            timeZone\n          }\n        }\n      }\n      pagination {\n        page\n        pageSize\n        total\n      }\n    }\n  }\n": types.DashboardBookingsDocument,
    "\n  query DashboardObjectOptions {\n    bookableObjects {\n      id\n      name\n      accommodation {\n        id\n        name\n        timeZone\n      }\n    }\n  }\n": types.DashboardObjectOptionsDocument,
    "\n  query DashboardBookingNotifications($id: ID!) {\n    booking(id: $id) {\n      id\n      notifications {\n        id\n        channel\n        kind\n        status\n        recipient\n        attempts\n        lastError\n        sentAt\n        nextAttemptAt\n        createdAt\n      }\n    }\n  }\n": types.DashboardBookingNotificationsDocument,
    "\n  mutation DashboardResendNotification($id: ID!) {\n    resendNotification(id: $id) {\n      id\n      status\n    }\n  }\n": types.DashboardResendNotificationDocument,
    "\n  query DashboardBookingPayment($id: ID!) {\n    booking(id: $id) {\n      id\n      status\n      totalPrice\n      currency\n      payment {\n        status\n        amountPaid\n        amountRefunded\n        currency\n        provider\n        paidAt\n      }\n    }\n    paymentRecords(bookingId: $id) {\n      id\n      kind\n      provider\n      amount\n      currency\n      reason\n      note\n      actor\n      createdAt\n    }\n  }\n": types.DashboardBookingPaymentDocument,
    "\n  mutation DashboardMarkBookingPaid($id: ID!, $amount: Int!, $note: String) {\n    markBookingPaid(id: $id, amount: $amount, note: $note) {\n      id\n      status\n      payment {\n        status\n      }\n    }\n  }\n": types.DashboardMarkBookingPaidDocument,
    "\n  query DashboardBookingSeries($id: ID!) {\n    bookingSeries(id: $id) {\n      id\n      rule\n      status\n      occurrences(first: 100) {\n        totalCount\n        nodes {\n          id\n          startTime\n          endTime\n          status\n        }\n      }\n    }\n  }\n": types.DashboardBookingSeriesDocument,
    "\n  mutation DashboardCancelSeries($id: ID!, $scope: BookingSeriesScope!, $fromBookingId: ID) {\n    cancelBookingSeries(id: $id, scope: $scope, fromBookingId: $fromBookingId) {\n      series {\n        id\n        status\n      }\n      cancelled {\n        id\n      }\n    }\n  }\n": types.DashboardCancelSeriesDocument,
    "\n  query DashboardGuestLink($bookingId: ID!) {\n    guestLink(bookingId: $bookingId) {\n      bookingId\n      manageUrl\n    }\n  }\n": types.DashboardGuestLinkDocument,
    "\n  mutation DashboardRevokeGuestLink($bookingId: ID!) {\n    revokeGuestLink(bookingId: $bookingId) {\n      bookingId\n      manageUrl\n    }\n  }\n": types.DashboardRevokeGuestLinkDocument,
    "\n  query DashboardCalendarVenues {\n    accommodations {\n      id\n      name\n      timeZone\n      objects {\n        id\n        name\n        bookingRules {\n          minDurationMinutes\n          slotIncrementMinutes\n        }\n        openingHours {\n          specialDates {\n            date\n            closed\n            reason\n          }\n        }\n      }\n    }\n  }\n": types.DashboardCalendarVenuesDocument,
    "\n  query DashboardCalendarSlots($date: String!, $objectId: ID!) {\n    availability(date: $date, objectId: $objectId) {\n      slots {\n        start\n        end\n        available\n      }\n    }\n  }\n": types.DashboardCalendarSlotsDocument,
    "\n  query DashboardCalendarBookings($from: DateTime, $to: DateTime, $after: String) {\n    bookingsConnection(from: $from, to: $to, first: 100, after: $after) {\n      edges {\n        node {\n          id\n          objectId\n          guestName\n          guestEmail\n          startTime\n          endTime\n          status\n          totalPrice\n          currency\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.DashboardCalendarBookingsDocument,
    "\n  query DashboardDeskQuote($objectId: ID!, $startTime: DateTime!, $endTime: DateTime!) {\n    priceQuote(objectId: $objectId, startTime: $startTime, endTime: $endTime) {\n      totalPrice\n      currency\n      breakdown\n    }\n  }\n": types.DashboardDeskQuoteDocument,
    "\n  mutation DashboardDeskCreateBooking(\n    $objectId: ID!\n    $guestName: String!\n    $guestEmail: String!\n    $guestPhone: String\n    $startTime: DateTime!\n    $endTime: DateTime!\n    $status: BookingStatus\n  ) {\n    createBooking(\n      objectId: $objectId\n      guestName: $guestName\n      guestEmail: $guestEmail\n      guestPhone: $guestPhone\n      startTime: $startTime\n      endTime: $endTime\n      status: $status\n    ) {\n      booking {\n        id\n        status\n        guestName\n        startTime\n        endTime\n        totalPrice\n        currency\n      }\n    }\n  }\n": types.DashboardDeskCreateBookingDocument,
    "\n  mutation DashboardRescheduleBooking($bookingId: ID!, $startTime: DateTime!, $endTime: DateTime!, $objectId: ID) {\n    rescheduleBooking(bookingId: $bookingId, startTime: $startTime, endTime: $endTime, objectId: $objectId) {\n      booking {\n        id\n        objectId\n        startTime\n        endTime\n        totalPrice\n        currency\n      }\n      previous {\n        totalPrice\n      }\n    }\n  }\n": types.DashboardRescheduleBookingDocument,
    "\n  mutation DashboardUpdateBookingGuest($bookingId: ID!, $guestName: String, $guestEmail: String, $guestPhone: String) {\n    updateBookingGuest(bookingId: $bookingId, guestName: $guestName, guestEmail: $guestEmail, guestPhone: $guestPhone) {\n      booking {\n        id\n        guestName\n        guestEmail\n        guestPhone\n      }\n    }\n  }\n": types.DashboardUpdateBookingGuestDocument,
    "\n  query DashboardSeriesPreview($objectId: ID!, $startTime: DateTime!, $endTime: DateTime!, $rule: String!) {\n    previewBookingSeries(objectId: $objectId, startTime: $startTime, endTime: $endTime, rule: $rule) {\n      rule\n      availableCount\n      conflictCount\n      totalPrice\n      occurrences {\n        index\n        startTime\n        endTime\n        available\n        conflictCode\n        conflictMessage\n        totalPrice\n        currency\n      }\n    }\n  }\n": types.DashboardSeriesPreviewDocument,
    "\n  mutation DashboardCreateSeries(\n    $objectId: ID!\n    $guestName: String!\n    $guestEmail: String!\n    $guestPhone: String\n    $startTime: DateTime!\n    $endTime: DateTime!\n    $rule: String!\n    $status: BookingStatus\n  ) {\n    createBookingSeries(\n      objectId: $objectId\n      guestName: $guestName\n      guestEmail: $guestEmail\n      guestPhone: $guestPhone\n      startTime: $startTime\n      endTime: $endTime\n      rule: $rule\n      status: $status\n    ) {\n      series {\n        id\n        rule\n      }\n      bookings {\n        id\n        guestName\n        startTime\n        endTime\n        totalPrice\n        currency\n        status\n      }\n      conflicts {\n        index\n        startTime\n      }\n    }\n  }\n": types.DashboardCreateSeriesDocument,
    "\n  query DashboardCatalog {\n    accommodations {\n      id\n      name\n      address\n      timeZone\n      objects {\n        id\n        name\n        pricePerHour\n      }\n    }\n    doors {\n      id\n      name\n      gpioPin\n      behavior\n      unlockDurationSeconds\n      objectIds\n    }\n  }\n": types.DashboardCatalogDocument,
    "\n  mutation DashboardCreateAccommodation($name: String!, $address: String!, $timeZone: String!) {\n    createAccommodation(name: $name, address: $address, timeZone: $timeZone) {\n      id\n    }\n  }\n": types.DashboardCreateAccommodationDocument,
    "\n  mutation DashboardUpdateAccommodation($id: ID!, $name: String, $address: String, $timeZone: String) {\n    updateAccommodation(id: $id, name: $name, address: $address, timeZone: $timeZone) {\n      id\n    }\n  }\n": types.DashboardUpdateAccommodationDocument,
    "\n  mutation DashboardDeleteAccommodation($id: ID!) {\n    deleteAccommodation(id: $id)\n  }\n": types.DashboardDeleteAccommodationDocument,
    "\n  mutation DashboardCreateObject($accommodationId: ID!, $name: String!, $pricePerHour: Int!) {\n    createObject(accommodationId: $accommodationId, name: $name, pricePerHour: $pricePerHour) {\n      id\n    }\n  }\n": types.DashboardCreateObjectDocument,
    "\n  mutation DashboardDeleteObject($id: ID!) {\n    deleteObject(id: $id)\n  }\n": types.DashboardDeleteObjectDocument,
    "\n  mutation DashboardCreateDoor(\n    $name: String!\n    $gpioPin: Int!\n    $behavior: String\n    $unlockDurationSeconds: Int\n    $objectIds: [ID!]\n  ) {\n    createDoor(\n      name: $name\n      gpioPin: $gpioPin\n      behavior: $behavior\n      unlockDurationSeconds: $unlockDurationSeconds\n      objectIds: $objectIds\n    ) {\n      id\n    }\n  }\n": types.DashboardCreateDoorDocument,
    "\n  mutation DashboardUpdateDoor(\n    $id: ID!\n    $name: String\n    $gpioPin: Int\n    $behavior: String\n    $unlockDurationSeconds: Int\n    $objectIds: [ID!]\n  ) {\n    updateDoor(\n      id: $id\n      name: $name\n      gpioPin: $gpioPin\n      behavior: $behavior\n      unlockDurationSeconds: $unlockDurationSeconds\n      objectIds: $objectIds\n    ) {\n      id\n    }\n  }\n": types.DashboardUpdateDoorDocument,
    "\n  mutation DashboardDeleteDoor($id: ID!) {\n    deleteDoor(id: $id)\n  }\n": types.DashboardDeleteDoorDocument,
    "\n  query DashboardObject($id: ID!) {\n    bookableObject(id: $id) {\n      id\n      name\n      pricePerHour\n      accommodation {\n        id\n        name\n        timeZone\n      }\n      openingHours {\n        schedule {\n          monday {\n            open\n            close\n          }\n          tuesday {\n            open\n            close\n          }\n          wednesday {\n            open\n            close\n          }\n          thursday {\n            open\n            close\n          }\n          friday {\n            open\n            close\n          }\n          saturday {\n            open\n            close\n          }\n          sunday {\n            open\n            close\n          }\n        }\n        specialDates {\n          date\n          closed\n          reason\n          open\n          close\n        }\n      }\n      bookingRules {\n        minDurationMinutes\n        maxDurationMinutes\n        slotIncrementMinutes\n        minAdvanceMinutes\n        maxAdvanceDays\n        bufferMinutes\n      }\n    }\n  }\n": types.DashboardObjectDocument,
    "\n  mutation DashboardUpdateObject($id: ID!, $name: String, $pricePerHour: Int) {\n    updateObject(id: $id, name: $name, pricePerHour: $pricePerHour) {\n      id\n    }\n  }\n": types.DashboardUpdateObjectDocument,
    "\n  mutation DashboardSetOpeningHours($objectId: ID!, $schedule: WeeklyScheduleInput!) {\n    setOpeningHours(objectId: $objectId, schedule: $schedule) {\n      specialDates {\n        date\n      }\n    }\n  }\n": types.DashboardSetOpeningHoursDocument,
    "\n  mutation DashboardSetSpecialDate(\n    $objectId: ID!\n    $date: String!\n    $closed: Boolean!\n    $reason: String\n    $open: String\n    $close: String\n  ) {\n    setSpecialDate(objectId: $objectId, date: $date, closed: $closed, reason: $reason, open: $open, close: $close) {\n      specialDates {\n        date\n      }\n    }\n  }\n": types.DashboardSetSpecialDateDocument,
    "\n  mutation DashboardRemoveSpecialDate($objectId: ID!, $date: String!) {\n    removeSpecialDate(objectId: $objectId, date: $date) {\n      specialDates {\n        date\n      }\n    }\n  }\n": types.DashboardRemoveSpecialDateDocument,
    "\n  mutation DashboardSetBookingRules($objectId: ID!, $rules: BookingRulesInput!) {\n    setBookingRules(objectId: $objectId, rules: $rules) {\n      minDurationMinutes\n    }\n  }\n": types.DashboardSetBookingRulesDocument,
    "\n  mutation DashboardDeleteObjectFromPage($id: ID!) {\n    deleteObject(id: $id)\n  }\n": types.DashboardDeleteObjectFromPageDocument,
    "\n  query DashboardCustomer($id: ID!) {\n    customer(id: $id) {\n      id\n      name\n      email\n      phone\n      notes\n      marketingConsent\n      marketingConsentAt\n      erasedAt\n      createdAt\n      bookingCount\n      noShowCount\n      totalSpent {\n        currency\n        paid\n        refunded\n        net\n      }\n      bookings(first: 50) {\n        totalCount\n        nodes {\n          id\n          reference\n          objectName\n          startTime\n          endTime\n          status\n          totalPrice\n          currency\n        }\n      }\n    }\n  }\n": types.DashboardCustomerDocument,
    "\n  mutation DashboardUpdateCustomer(\n    $id: ID!\n    $name: String\n    $email: String\n    $phone: String\n    $notes: String\n    $marketingConsent: Boolean\n  ) {\n    updateCustomer(\n      id: $id\n      name: $name\n      email: $email\n      phone: $phone\n      notes: $notes\n      marketingConsent: $marketingConsent\n    ) {\n      id\n    }\n  }\n": types.DashboardUpdateCustomerDocument,
    "\n  mutation DashboardMergeCustomers($targetId: ID!, $sourceIds: [ID!]!) {\n    mergeCustomers(targetId: $targetId, sourceIds: $sourceIds) {\n      movedBookings\n      mergedIds\n    }\n  }\n": types.DashboardMergeCustomersDocument,
    "\n  mutation DashboardEraseCustomer($id: ID!) {\n    eraseCustomer(id: $id) {\n      id\n      erasedAt\n    }\n  }\n": types.DashboardEraseCustomerDocument,
    "\n  query DashboardCustomerDuplicates($search: String) {\n    customers(search: $search, first: 10) {\n      id\n      name\n      email\n      phone\n      bookingCount\n    }\n  }\n": types.DashboardCustomerDuplicatesDocument,
    "\n  query DashboardCustomers($search: String, $first: Int, $after: String) {\n    customersConnection(search: $search, first: $first, after: $after) {\n      totalCount\n      nodes {\n        id\n        name\n        email\n        phone\n        bookingCount\n        noShowCount\n        erasedAt\n        createdAt\n        totalSpent {\n          currency\n          net\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n": types.DashboardCustomersDocument,
    "\n  query DashboardCancellationPolicies {\n    cancellationPolicies {\n      id\n      name\n      isDefault\n      tiers {\n        hoursBeforeStart\n        refundPercent\n      }\n    }\n  }\n": types.DashboardCancellationPoliciesDocument,
    "\n  mutation DashboardCreateCancellationPolicy($name: String!, $isDefault: Boolean, $tiers: [CancellationTierInput!]!) {\n    createCancellationPolicy(name: $name, isDefault: $isDefault, tiers: $tiers) {\n      id\n    }\n  }\n": types.DashboardCreateCancellationPolicyDocument,
    "\n  mutation DashboardSetDefaultPolicy($id: ID!) {\n    setDefaultCancellationPolicy(id: $id) {\n      id\n    }\n  }\n": types.DashboardSetDefaultPolicyDocument,
    "\n  mutation DashboardDeleteCancellationPolicy($id: ID!) {\n    deleteCancellationPolicy(id: $id)\n  }\n": types.DashboardDeleteCancellationPolicyDocument,
    "\n  query DashboardPreviewObjects {\n    bookableObjects {\n      id\n      name\n      accommodation {\n        id\n        name\n        timeZone\n      }\n    }\n  }\n": types.DashboardPreviewObjectsDocument,
    "\n  query DashboardPriceQuote($objectId: ID!, $startTime: DateTime!, $endTime: DateTime!) {\n    priceQuote(objectId: $objectId, startTime: $startTime, endTime: $endTime) {\n      basePrice\n      adjustments {\n        rule\n        amount\n      }\n      totalPrice\n      currency\n      breakdown\n    }\n  }\n": types.DashboardPriceQuoteDocument,
    "\n  query DashboardPricingRules {\n    pricingRules {\n      id\n      name\n      type\n      active\n      objectIds\n      percent\n      startTime\n      endTime\n      weekdays\n      minDurationMinutes\n      minDaysInAdvance\n    }\n  }\n": types.DashboardPricingRulesDocument,
    "\n  query DashboardPricingRuleObjects {\n    accommodations {\n      id\n      name\n      objects {\n        id\n        name\n      }\n    }\n  }\n": types.DashboardPricingRuleObjectsDocument,
    "\n  mutation DashboardCreatePricingRule(\n    $name: String!\n    $type: String!\n    $percent: Int!\n    $active: Boolean\n    $objectIds: [ID!]\n    $startTime: String\n    $endTime: String\n    $weekdays: [String!]\n    $minDurationMinutes: Int\n    $minDaysInAdvance: Int\n  ) {\n    createPricingRule(\n      name: $name\n      type: $type\n      percent: $percent\n      active: $active\n      objectIds: $objectIds\n      startTime: $startTime\n      endTime: $endTime\n      weekdays: $weekdays\n      minDurationMinutes: $minDurationMinutes\n      minDaysInAdvance: $minDaysInAdvance\n    ) {\n      pricingRule {\n        id\n      }\n    }\n  }\n": types.DashboardCreatePricingRuleDocument,
    "\n  mutation DashboardUpdatePricingRule(\n    $id: ID!\n    $name: String\n    $type: String\n    $percent: Int\n    $active: Boolean\n    $objectIds: [ID!]\n    $startTime: String\n    $endTime: String\n    $weekdays: [String!]\n    $minDurationMinutes: Int\n    $minDaysInAdvance: Int\n  ) {\n    updatePricingRule(\n      id: $id\n      name: $name\n      type: $type\n      percent: $percent\n      active: $active\n      objectIds: $objectIds\n      startTime: $startTime\n      endTime: $endTime\n      weekdays: $weekdays\n      minDurationMinutes: $minDurationMinutes\n      minDaysInAdvance: $minDaysInAdvance\n    ) {\n      id\n      active\n    }\n  }\n": types.DashboardUpdatePricingRuleDocument,
    "\n  mutation DashboardDeactivatePricingRule($id: ID!) {\n    deactivatePricingRule(id: $id) {\n      id\n      active\n    }\n  }\n": types.DashboardDeactivatePricingRuleDocument,
    "\n  mutation DashboardDeletePricingRule($id: ID!) {\n    deletePricingRule(id: $id)\n  }\n": types.DashboardDeletePricingRuleDocument,
    "\n  query DashboardReportObjects {\n    bookableObjects {\n      id\n      name\n      accommodation {\n        id\n        timeZone\n      }\n    }\n  }\n": types.DashboardReportObjectsDocument,
    "\n  query DashboardReports(\n    $from: LocalDate!\n    $to: LocalDate!\n    $period: ReportPeriod\n    $objectIds: [ID!]\n    $timeZone: String\n    $cashUpDate: LocalDate!\n  ) {\n    occupancyReport(from: $from, to: $to, objectIds: $objectIds, timeZone: $timeZone) {\n      cells {\n        objectId\n        weekday\n        hour\n        bookedMinutes\n        openMinutes\n      }\n      objects {\n        objectId\n        objectName\n        bookedMinutes\n        openMinutes\n        occupancy\n      }\n    }\n    revenueReport(from: $from, to: $to, period: $period, objectIds: $objectIds, timeZone: $timeZone) {\n      rows {\n        periodStart\n        currency\n        bookings\n        revenue\n      }\n      byObject {\n        objectId\n        objectName\n        currency\n        bookings\n        revenue\n      }\n      totals {\n        currency\n        bookings\n        revenue\n      }\n    }\n    paymentsReport(from: $from, to: $to, period: $period, objectIds: $objectIds, timeZone: $timeZone) {\n      rows {\n        periodStart\n        currency\n        payments\n        paymentCount\n        refunds\n        refundCount\n        net\n      }\n      totals {\n        currency\n        payments\n        refunds\n        net\n      }\n    }\n    cashUpReport(date: $cashUpDate, objectIds: $objectIds, timeZone: $timeZone) {\n      date\n      lines {\n        currency\n        online\n        onlineCount\n        atVenue\n        atVenueCount\n        refundsOnline\n        refundsAtVenue\n        refundCount\n        net\n        cashInHand\n      }\n    }\n    noShowReport(from: $from, to: $to, objectIds: $objectIds, timeZone: $timeZone) {\n      byObject {\n        objectId\n        objectName\n        bookings\n        noShows\n        rate\n      }\n      bookings\n      noShows\n      rate\n    }\n  }\n": types.DashboardReportsDocument,
};

/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardDoorNames {\n    doors {\n      id\n      name\n    }\n  }\n"): typeof import('./graphql').DashboardDoorNamesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardChangePassword($currentPassword: String!, $newPassword: String!) {\n    changePassword(currentPassword: $currentPassword, newPassword: $newPassword) {\n      signedOutSessions\n    }\n  }\n"): typeof import('./graphql').DashboardChangePasswordDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardOverviewAccommodations {\n    accommodations {\n      id\n      name\n      timeZone\n    }\n  }\n"): typeof import('./graphql').DashboardOverviewAccommodationsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardOverviewToday($from: String!, $to: String!) {\n    bookingPage(from: $from, to: $to, pageSize: 100) {\n      bookings {\n        id\n        guestName\n        objectName\n        startTime\n        endTime\n        status\n        object {\n          id\n          accommodationId\n        }\n      }\n      pagination {\n        total\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardOverviewTodayDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardOverviewDevices {\n    devices {\n      id\n      name\n      status\n      online\n      lastHeartbeatAt\n    }\n  }\n"): typeof import('./graphql').DashboardOverviewDevicesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardOverviewAccess {\n    accessLog(first: 100) {\n      id\n      deviceId\n      doorId\n      allowed\n      reason\n      checkedAt\n    }\n  }\n"): typeof import('./graphql').DashboardOverviewAccessDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardOverviewWebhooks {\n    webhooks {\n      id\n      url\n      active\n    }\n  }\n"): typeof import('./graphql').DashboardOverviewWebhooksDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardOverviewFailedDeliveries($webhookId: ID!) {\n    webhookDeliveries(webhookId: $webhookId, status: FAILED, first: 5) {\n      deliveries {\n        id\n        eventType\n        lastStatusCode\n        lastError\n        lastAttemptAt\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardOverviewFailedDeliveriesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardPaymentIssues {\n    paymentIssues {\n      id\n      kind\n      bookingId\n      amount\n      currency\n      detail\n      since\n      retryable\n    }\n  }\n"): typeof import('./graphql').DashboardPaymentIssuesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardRetryRefund($bookingId: ID!) {\n    retryRefund(bookingId: $bookingId) {\n      id\n    }\n  }\n"): typeof import('./graphql').DashboardRetryRefundDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardAcknowledgePaymentIssue($id: ID!) {\n    acknowledgePaymentIssue(id: $id) {\n      id\n      acknowledgedAt\n    }\n  }\n"): typeof import('./graphql').DashboardAcknowledgePaymentIssueDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardApiKeys {\n    apiKeys {\n      id\n      name\n      prefix\n      scopes\n      rateLimitPerMinute\n      createdAt\n      lastUsedAt\n      revokedAt\n    }\n  }\n"): typeof import('./graphql').DashboardApiKeysDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardCreateApiKey($name: String!, $scopes: [String!]!, $rateLimitPerMinute: Int) {\n    createApiKey(name: $name, scopes: $scopes, rateLimitPerMinute: $rateLimitPerMinute) {\n      apiKey\n      apiKeyInfo {\n        id\n        name\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardCreateApiKeyDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardRevokeApiKey($id: ID!) {\n    revokeApiKey(id: $id) {\n      id\n      revokedAt\n    }\n  }\n"): typeof import('./graphql').DashboardRevokeApiKeyDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardAuditLog($first: Int, $after: String) {\n    auditLog(first: $first, after: $after) {\n      edges {\n        cursor\n        node {\n          id\n          occurredAt\n          action\n          actor {\n            type\n            label\n          }\n          targetType\n          targetId\n          ipAddress\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardAuditLogDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardBookingPage {\n    bookingPageSettings {\n      saved\n      enabled\n      slug\n      url\n      paymentMode\n      onlinePaymentAvailable\n      allowedOrigins\n      logo\n      accentColour\n      defaultLocale\n      vatRateBasisPoints\n      updatedAt\n      texts {\n        en {\n          intro\n          cancellationPolicy\n          afterBooking\n        }\n        de {\n          intro\n          cancellationPolicy\n          afterBooking\n        }\n      }\n    }\n    viewer {\n      id\n      name\n    }\n    bookableObjects {\n      id\n      name\n      published\n      accommodation {\n        name\n      }\n    }\n    apiKeys {\n      id\n      kind\n      prefix\n      publishableKey\n      createdAt\n      revokedAt\n    }\n  }\n"): typeof import('./graphql').DashboardBookingPageDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardSaveBookingPage($input: BookingPageSettingsInput!) {\n    updateBookingPageSettings(input: $input) {\n      saved\n      slug\n    }\n  }\n"): typeof import('./graphql').DashboardSaveBookingPageDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardPublishObjects($ids: [ID!]!, $published: Boolean!) {\n    publishObjects(ids: $ids, published: $published) {\n      objects {\n        id\n        published\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardPublishObjectsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardCreatePublishableKey {\n    createPublishableKey {\n      apiKey\n    }\n  }\n"): typeof import('./graphql').DashboardCreatePublishableKeyDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardRevokePublishableKey($id: ID!) {\n    revokeApiKey(id: $id) {\n      id\n    }\n  }\n"): typeof import('./graphql').DashboardRevokePublishableKeyDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardDevice($id: ID!) {\n    device(id: $id) {\n      id\n      name\n      status\n      online\n      lastHeartbeatAt\n      serial\n      firmwareVersion\n      doors {\n        id\n        name\n      }\n    }\n    deviceCommands(deviceId: $id, first: 100) {\n      command {\n        id\n        type\n        status\n        payload\n        created_at\n        expires_at\n      }\n      doorId\n      deliveredAt\n      completedAt\n      result\n      error\n    }\n    doors {\n      id\n      name\n    }\n  }\n"): typeof import('./graphql').DashboardDeviceDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardDevices {\n    devices {\n      id\n      name\n      status\n      online\n      lastHeartbeatAt\n      serial\n      firmwareVersion\n      keyPrefix\n      activationExpiresAt\n      createdAt\n      telemetry {\n        cpuPercent\n        memoryPercent\n        wifiSignalDbm\n        doorStates {\n          doorId\n          state\n        }\n      }\n      doors {\n        id\n        name\n        gpioPin\n      }\n    }\n    doors {\n      id\n      name\n    }\n  }\n"): typeof import('./graphql').DashboardDevicesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardRegisterDevice($name: String!, $doorIds: [ID!]!) {\n    registerDevice(name: $name, doorIds: $doorIds) {\n      activationCode\n      device {\n        id\n        name\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardRegisterDeviceDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardSetDeviceDoors($id: ID!, $doorIds: [ID!]!) {\n    setDeviceDoors(id: $id, doorIds: $doorIds) {\n      id\n    }\n  }\n"): typeof import('./graphql').DashboardSetDeviceDoorsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardRevokeDevice($id: ID!) {\n    revokeDevice(id: $id) {\n      id\n      status\n    }\n  }\n"): typeof import('./graphql').DashboardRevokeDeviceDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardQueueUnlock($deviceId: ID!, $doorId: ID!) {\n    createDeviceCommand(deviceId: $deviceId, type: \"unlock\", doorId: $doorId) {\n      command {\n        id\n        status\n        expires_at\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardQueueUnlockDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardUserInvitations {\n    userInvitations {\n      id\n      email\n      role\n      invitedBy\n      createdAt\n      expiresAt\n      expired\n    }\n  }\n"): typeof import('./graphql').DashboardUserInvitationsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardInviteUser($email: String!, $role: UserRole, $locale: Locale) {\n    inviteUser(email: $email, role: $role, locale: $locale) {\n      id\n      email\n    }\n  }\n"): typeof import('./graphql').DashboardInviteUserDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardRevokeUserInvitation($id: ID!) {\n    revokeUserInvitation(id: $id) {\n      revokedInvitationId\n    }\n  }\n"): typeof import('./graphql').DashboardRevokeUserInvitationDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardNotificationSettings {\n    notificationSettings {\n      emailEnabled\n      smsEnabled\n      senderName\n      replyTo\n      reminderHoursBefore\n      emailAvailable\n      smsAvailable\n    }\n  }\n"): typeof import('./graphql').DashboardNotificationSettingsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardUpdateNotificationSettings($input: UpdateNotificationSettingsInput!) {\n    updateNotificationSettings(input: $input) {\n      emailEnabled\n      smsEnabled\n      senderName\n      replyTo\n      reminderHoursBefore\n    }\n  }\n"): typeof import('./graphql').DashboardUpdateNotificationSettingsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardSendTestNotificationEmail($to: String!) {\n    sendTestNotificationEmail(to: $to) {\n      success\n      error\n    }\n  }\n"): typeof import('./graphql').DashboardSendTestNotificationEmailDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardOAuthApps {\n    oauthApps {\n      clientId\n      name\n      redirectUris\n      scopes\n      public\n      createdAt\n      secretRotatedAt\n      authorizedTenantCount\n    }\n  }\n"): typeof import('./graphql').DashboardOAuthAppsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardCreateOAuthApp($name: String!, $redirectUris: [String!]!, $scopes: [String!]!, $public: Boolean) {\n    createOAuthApp(name: $name, redirectUris: $redirectUris, scopes: $scopes, public: $public) {\n      clientSecret\n      app {\n        clientId\n        name\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardCreateOAuthAppDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardRotateOAuthAppSecret($clientId: ID!) {\n    rotateOAuthAppSecret(clientId: $clientId) {\n      clientSecret\n      app {\n        clientId\n        name\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardRotateOAuthAppSecretDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardDeleteOAuthApp($clientId: ID!) {\n    deleteOAuthApp(clientId: $clientId)\n  }\n"): typeof import('./graphql').DashboardDeleteOAuthAppDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardConnectedApps {\n    connectedApps {\n      clientId\n      name\n      ownerTenantName\n      scopes\n      authorizedAt\n      lastUsedAt\n    }\n  }\n"): typeof import('./graphql').DashboardConnectedAppsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardRevokeConnectedApp($clientId: ID!) {\n    revokeConnectedApp(clientId: $clientId)\n  }\n"): typeof import('./graphql').DashboardRevokeConnectedAppDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardProviderCredentials {\n    providerCredentials {\n      stripe {\n        set\n        hint\n        source\n        updatedAt\n      }\n      smtp {\n        set\n        hint\n        source\n        updatedAt\n      }\n      sms {\n        set\n        hint\n        source\n        updatedAt\n      }\n      stripeWebhookUrl\n    }\n  }\n"): typeof import('./graphql').DashboardProviderCredentialsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardSetStripeCredentials($input: StripeCredentialsInput!) {\n    setStripeCredentials(input: $input) {\n      stripeWebhookUrl\n    }\n  }\n"): typeof import('./graphql').DashboardSetStripeCredentialsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardSetSmtpCredentials($input: SmtpCredentialsInput!) {\n    setSmtpCredentials(input: $input) {\n      stripeWebhookUrl\n    }\n  }\n"): typeof import('./graphql').DashboardSetSmtpCredentialsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardSetSmsCredentials($input: SmsCredentialsInput!) {\n    setSmsCredentials(input: $input) {\n      stripeWebhookUrl\n    }\n  }\n"): typeof import('./graphql').DashboardSetSmsCredentialsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardClearProviderCredentials($provider: CredentialProvider!) {\n    clearProviderCredentials(provider: $provider) {\n      stripeWebhookUrl\n    }\n  }\n"): typeof import('./graphql').DashboardClearProviderCredentialsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardUsers {\n    users {\n      id\n      email\n      role\n      createdAt\n      passwordChangedAt\n    }\n  }\n"): typeof import('./graphql').DashboardUsersDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardCreateUser($email: String!, $password: String!, $role: UserRole) {\n    createUser(email: $email, password: $password, role: $role) {\n      id\n      email\n    }\n  }\n"): typeof import('./graphql').DashboardCreateUserDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardUpdateUserRole($id: ID!, $role: UserRole!) {\n    updateUserRole(id: $id, role: $role) {\n      id\n      role\n    }\n  }\n"): typeof import('./graphql').DashboardUpdateUserRoleDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardRemoveUser($id: ID!) {\n    removeUser(id: $id) {\n      removedUserId\n    }\n  }\n"): typeof import('./graphql').DashboardRemoveUserDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardWebhook($id: ID!, $status: WebhookDeliveryStatus) {\n    webhook(id: $id) {\n      id\n      url\n      events\n      active\n      createdAt\n    }\n    webhookDeliveries(webhookId: $id, status: $status, first: 50) {\n      deliveries {\n        id\n        eventId\n        eventType\n        status\n        attemptCount\n        lastStatusCode\n        lastError\n        lastAttemptAt\n        nextAttemptAt\n        createdAt\n        attempts {\n          attemptedAt\n          statusCode\n          durationMs\n          error\n          requestHeaders {\n            name\n            value\n          }\n          requestBody\n          responseHeaders {\n            name\n            value\n          }\n          responseBody\n          responseBodyTruncated\n        }\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardWebhookDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardRedeliver($webhookId: ID!, $eventId: ID!) {\n    redeliverWebhookEvent(webhookId: $webhookId, eventId: $eventId) {\n      delivery {\n        id\n        status\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardRedeliverDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardUpdateWebhook($webhookId: ID!, $url: String, $events: [String!], $active: Boolean) {\n    updateWebhook(webhookId: $webhookId, url: $url, events: $events, active: $active) {\n      webhook {\n        id\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardUpdateWebhookDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardRotateWebhookSecret($webhookId: ID!) {\n    rotateWebhookSecret(webhookId: $webhookId) {\n      secret\n      previousSecretExpiresAt\n    }\n  }\n"): typeof import('./graphql').DashboardRotateWebhookSecretDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardWebhooks {\n    webhooks {\n      id\n      url\n      events\n      active\n      createdAt\n    }\n  }\n"): typeof import('./graphql').DashboardWebhooksDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardCreateWebhook($url: String!, $events: [String!]!, $secret: String!) {\n    createWebhook(url: $url, events: $events, secret: $secret) {\n      webhook {\n        id\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardCreateWebhookDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardDeleteWebhook($webhookId: ID!) {\n    deleteWebhook(webhookId: $webhookId) {\n      deleted\n    }\n  }\n"): typeof import('./graphql').DashboardDeleteWebhookDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardTestWebhook($webhookId: ID!) {\n    testWebhook(webhookId: $webhookId) {\n      eventId\n      success\n      statusCode\n      durationMs\n      error\n    }\n  }\n"): typeof import('./graphql').DashboardTestWebhookDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardRescheduleObjects($accommodationId: ID!) {\n    bookableObjects(accommodationId: $accommodationId) {\n      id\n      name\n    }\n  }\n"): typeof import('./graphql').DashboardRescheduleObjectsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardBooking($id: ID!) {\n    booking(id: $id) {\n      id\n      reference\n      guestName\n      guestEmail\n      guestPhone\n      customerId\n      startTime\n      endTime\n      status\n      totalPrice\n      currency\n      refundAmount\n      createdAt\n      paymentUrl\n      noShowAt\n      cancellationReasonCode\n      cancellationReason\n      seriesId\n      object {\n        id\n        name\n        pricePerHour\n        accommodation {\n          id\n          name\n          timeZone\n        }\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardBookingDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardBookingCredentials($bookingId: ID!) {\n    bookingCredentials(bookingId: $bookingId) {\n      validFrom\n      validUntil\n      qrCode {\n        svg\n      }\n      sms {\n        code\n        message\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardBookingCredentialsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardBookingAccess($bookingId: ID!) {\n    accessLog(bookingId: $bookingId, first: 50) {\n      id\n      deviceId\n      doorId\n      credentialType\n      allowed\n      reason\n      checkedAt\n    }\n  }\n"): typeof import('./graphql').DashboardBookingAccessDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardBookingWebhookDeliveries($bookingId: ID!) {\n    bookingWebhookDeliveries(bookingId: $bookingId, first: 50) {\n      deliveries {\n        id\n        webhookId\n        eventType\n        status\n        attemptCount\n        lastStatusCode\n        lastError\n        createdAt\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardBookingWebhookDeliveriesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardCancellationQuote($bookingId: ID!) {\n    cancellationQuote(bookingId: $bookingId) {\n      refundAmount\n      totalPrice\n      currency\n      policyName\n      amountPaid\n      moneyBack\n    }\n  }\n"): typeof import('./graphql').DashboardCancellationQuoteDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardUpdateBookingStatus(\n    $bookingId: ID!\n    $status: BookingStatus!\n    $reasonCode: CancellationReasonCode\n    $reason: String\n  ) {\n    updateBookingStatus(bookingId: $bookingId, status: $status, reasonCode: $reasonCode, reason: $reason) {\n      refundAmount\n      booking {\n        id\n        status\n        cancellationReasonCode\n        cancellationReason\n        payment {\n          amountRefunded\n        }\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardUpdateBookingStatusDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardMarkNoShow($bookingId: ID!) {\n    markNoShow(bookingId: $bookingId) {\n      booking {\n        id\n        status\n        noShowAt\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardMarkNoShowDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardBookings(\n    $page: Int\n    $pageSize: Int\n    $status: BookingStatus\n    $objectId: ID\n    $from: String\n    $to: String\n    $guestEmail: String\n    $search: String\n    $paymentStatus: PaymentStatus\n  ) {\n    bookingPage(\n      page: $page\n      pageSize: $pageSize\n      status: $status\n      objectId: $objectId\n      from: $from\n      to: $to\n      guestEmail: $guestEmail\n      search: $search\n      paymentStatus: $paymentStatus\n    ) {\n      bookings {\n        id\n        reference\n        guestName\n        guestEmail\n        objectName\n        startTime\n        endTime\n        status\n        totalPrice\n        currency\n        payment {\n          status\n        }\n        object {\n          id\n          accommodation {\n            id\n            timeZone\n          }\n        }\n      }\n      pagination {\n        page\n        pageSize\n        total\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardBookingsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardObjectOptions {\n    bookableObjects {\n      id\n      name\n      accommodation {\n        id\n        name\n        timeZone\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardObjectOptionsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardBookingNotifications($id: ID!) {\n    booking(id: $id) {\n      id\n      notifications {\n        id\n        channel\n        kind\n        status\n        recipient\n        attempts\n        lastError\n        sentAt\n        nextAttemptAt\n        createdAt\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardBookingNotificationsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardResendNotification($id: ID!) {\n    resendNotification(id: $id) {\n      id\n      status\n    }\n  }\n"): typeof import('./graphql').DashboardResendNotificationDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardBookingPayment($id: ID!) {\n    booking(id: $id) {\n      id\n      status\n      totalPrice\n      currency\n      payment {\n        status\n        amountPaid\n        amountRefunded\n        currency\n        provider\n        paidAt\n      }\n    }\n    paymentRecords(bookingId: $id) {\n      id\n      kind\n      provider\n      amount\n      currency\n      reason\n      note\n      actor\n      createdAt\n    }\n  }\n"): typeof import('./graphql').DashboardBookingPaymentDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardMarkBookingPaid($id: ID!, $amount: Int!, $note: String) {\n    markBookingPaid(id: $id, amount: $amount, note: $note) {\n      id\n      status\n      payment {\n        status\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardMarkBookingPaidDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardBookingSeries($id: ID!) {\n    bookingSeries(id: $id) {\n      id\n      rule\n      status\n      occurrences(first: 100) {\n        totalCount\n        nodes {\n          id\n          startTime\n          endTime\n          status\n        }\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardBookingSeriesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardCancelSeries($id: ID!, $scope: BookingSeriesScope!, $fromBookingId: ID) {\n    cancelBookingSeries(id: $id, scope: $scope, fromBookingId: $fromBookingId) {\n      series {\n        id\n        status\n      }\n      cancelled {\n        id\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardCancelSeriesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardGuestLink($bookingId: ID!) {\n    guestLink(bookingId: $bookingId) {\n      bookingId\n      manageUrl\n    }\n  }\n"): typeof import('./graphql').DashboardGuestLinkDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardRevokeGuestLink($bookingId: ID!) {\n    revokeGuestLink(bookingId: $bookingId) {\n      bookingId\n      manageUrl\n    }\n  }\n"): typeof import('./graphql').DashboardRevokeGuestLinkDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardCalendarVenues {\n    accommodations {\n      id\n      name\n      timeZone\n      objects {\n        id\n        name\n        bookingRules {\n          minDurationMinutes\n          slotIncrementMinutes\n        }\n        openingHours {\n          specialDates {\n            date\n            closed\n            reason\n          }\n        }\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardCalendarVenuesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardCalendarSlots($date: String!, $objectId: ID!) {\n    availability(date: $date, objectId: $objectId) {\n      slots {\n        start\n        end\n        available\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardCalendarSlotsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardCalendarBookings($from: DateTime, $to: DateTime, $after: String) {\n    bookingsConnection(from: $from, to: $to, first: 100, after: $after) {\n      edges {\n        node {\n          id\n          objectId\n          guestName\n          guestEmail\n          startTime\n          endTime\n          status\n          totalPrice\n          currency\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardCalendarBookingsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardDeskQuote($objectId: ID!, $startTime: DateTime!, $endTime: DateTime!) {\n    priceQuote(objectId: $objectId, startTime: $startTime, endTime: $endTime) {\n      totalPrice\n      currency\n      breakdown\n    }\n  }\n"): typeof import('./graphql').DashboardDeskQuoteDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardDeskCreateBooking(\n    $objectId: ID!\n    $guestName: String!\n    $guestEmail: String!\n    $guestPhone: String\n    $startTime: DateTime!\n    $endTime: DateTime!\n    $status: BookingStatus\n  ) {\n    createBooking(\n      objectId: $objectId\n      guestName: $guestName\n      guestEmail: $guestEmail\n      guestPhone: $guestPhone\n      startTime: $startTime\n      endTime: $endTime\n      status: $status\n    ) {\n      booking {\n        id\n        status\n        guestName\n        startTime\n        endTime\n        totalPrice\n        currency\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardDeskCreateBookingDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardRescheduleBooking($bookingId: ID!, $startTime: DateTime!, $endTime: DateTime!, $objectId: ID) {\n    rescheduleBooking(bookingId: $bookingId, startTime: $startTime, endTime: $endTime, objectId: $objectId) {\n      booking {\n        id\n        objectId\n        startTime\n        endTime\n        totalPrice\n        currency\n      }\n      previous {\n        totalPrice\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardRescheduleBookingDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardUpdateBookingGuest($bookingId: ID!, $guestName: String, $guestEmail: String, $guestPhone: String) {\n    updateBookingGuest(bookingId: $bookingId, guestName: $guestName, guestEmail: $guestEmail, guestPhone: $guestPhone) {\n      booking {\n        id\n        guestName\n        guestEmail\n        guestPhone\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardUpdateBookingGuestDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardSeriesPreview($objectId: ID!, $startTime: DateTime!, $endTime: DateTime!, $rule: String!) {\n    previewBookingSeries(objectId: $objectId, startTime: $startTime, endTime: $endTime, rule: $rule) {\n      rule\n      availableCount\n      conflictCount\n      totalPrice\n      occurrences {\n        index\n        startTime\n        endTime\n        available\n        conflictCode\n        conflictMessage\n        totalPrice\n        currency\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardSeriesPreviewDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardCreateSeries(\n    $objectId: ID!\n    $guestName: String!\n    $guestEmail: String!\n    $guestPhone: String\n    $startTime: DateTime!\n    $endTime: DateTime!\n    $rule: String!\n    $status: BookingStatus\n  ) {\n    createBookingSeries(\n      objectId: $objectId\n      guestName: $guestName\n      guestEmail: $guestEmail\n      guestPhone: $guestPhone\n      startTime: $startTime\n      endTime: $endTime\n      rule: $rule\n      status: $status\n    ) {\n      series {\n        id\n        rule\n      }\n      bookings {\n        id\n        guestName\n        startTime\n        endTime\n        totalPrice\n        currency\n        status\n      }\n      conflicts {\n        index\n        startTime\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardCreateSeriesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardCatalog {\n    accommodations {\n      id\n      name\n      address\n      timeZone\n      objects {\n        id\n        name\n        pricePerHour\n      }\n    }\n    doors {\n      id\n      name\n      gpioPin\n      behavior\n      unlockDurationSeconds\n      objectIds\n    }\n  }\n"): typeof import('./graphql').DashboardCatalogDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardCreateAccommodation($name: String!, $address: String!, $timeZone: String!) {\n    createAccommodation(name: $name, address: $address, timeZone: $timeZone) {\n      id\n    }\n  }\n"): typeof import('./graphql').DashboardCreateAccommodationDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardUpdateAccommodation($id: ID!, $name: String, $address: String, $timeZone: String) {\n    updateAccommodation(id: $id, name: $name, address: $address, timeZone: $timeZone) {\n      id\n    }\n  }\n"): typeof import('./graphql').DashboardUpdateAccommodationDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardDeleteAccommodation($id: ID!) {\n    deleteAccommodation(id: $id)\n  }\n"): typeof import('./graphql').DashboardDeleteAccommodationDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardCreateObject($accommodationId: ID!, $name: String!, $pricePerHour: Int!) {\n    createObject(accommodationId: $accommodationId, name: $name, pricePerHour: $pricePerHour) {\n      id\n    }\n  }\n"): typeof import('./graphql').DashboardCreateObjectDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardDeleteObject($id: ID!) {\n    deleteObject(id: $id)\n  }\n"): typeof import('./graphql').DashboardDeleteObjectDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardCreateDoor(\n    $name: String!\n    $gpioPin: Int!\n    $behavior: String\n    $unlockDurationSeconds: Int\n    $objectIds: [ID!]\n  ) {\n    createDoor(\n      name: $name\n      gpioPin: $gpioPin\n      behavior: $behavior\n      unlockDurationSeconds: $unlockDurationSeconds\n      objectIds: $objectIds\n    ) {\n      id\n    }\n  }\n"): typeof import('./graphql').DashboardCreateDoorDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardUpdateDoor(\n    $id: ID!\n    $name: String\n    $gpioPin: Int\n    $behavior: String\n    $unlockDurationSeconds: Int\n    $objectIds: [ID!]\n  ) {\n    updateDoor(\n      id: $id\n      name: $name\n      gpioPin: $gpioPin\n      behavior: $behavior\n      unlockDurationSeconds: $unlockDurationSeconds\n      objectIds: $objectIds\n    ) {\n      id\n    }\n  }\n"): typeof import('./graphql').DashboardUpdateDoorDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardDeleteDoor($id: ID!) {\n    deleteDoor(id: $id)\n  }\n"): typeof import('./graphql').DashboardDeleteDoorDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardObject($id: ID!) {\n    bookableObject(id: $id) {\n      id\n      name\n      pricePerHour\n      accommodation {\n        id\n        name\n        timeZone\n      }\n      openingHours {\n        schedule {\n          monday {\n            open\n            close\n          }\n          tuesday {\n            open\n            close\n          }\n          wednesday {\n            open\n            close\n          }\n          thursday {\n            open\n            close\n          }\n          friday {\n            open\n            close\n          }\n          saturday {\n            open\n            close\n          }\n          sunday {\n            open\n            close\n          }\n        }\n        specialDates {\n          date\n          closed\n          reason\n          open\n          close\n        }\n      }\n      bookingRules {\n        minDurationMinutes\n        maxDurationMinutes\n        slotIncrementMinutes\n        minAdvanceMinutes\n        maxAdvanceDays\n        bufferMinutes\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardObjectDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardUpdateObject($id: ID!, $name: String, $pricePerHour: Int) {\n    updateObject(id: $id, name: $name, pricePerHour: $pricePerHour) {\n      id\n    }\n  }\n"): typeof import('./graphql').DashboardUpdateObjectDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardSetOpeningHours($objectId: ID!, $schedule: WeeklyScheduleInput!) {\n    setOpeningHours(objectId: $objectId, schedule: $schedule) {\n      specialDates {\n        date\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardSetOpeningHoursDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardSetSpecialDate(\n    $objectId: ID!\n    $date: String!\n    $closed: Boolean!\n    $reason: String\n    $open: String\n    $close: String\n  ) {\n    setSpecialDate(objectId: $objectId, date: $date, closed: $closed, reason: $reason, open: $open, close: $close) {\n      specialDates {\n        date\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardSetSpecialDateDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardRemoveSpecialDate($objectId: ID!, $date: String!) {\n    removeSpecialDate(objectId: $objectId, date: $date) {\n      specialDates {\n        date\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardRemoveSpecialDateDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardSetBookingRules($objectId: ID!, $rules: BookingRulesInput!) {\n    setBookingRules(objectId: $objectId, rules: $rules) {\n      minDurationMinutes\n    }\n  }\n"): typeof import('./graphql').DashboardSetBookingRulesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardDeleteObjectFromPage($id: ID!) {\n    deleteObject(id: $id)\n  }\n"): typeof import('./graphql').DashboardDeleteObjectFromPageDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardCustomer($id: ID!) {\n    customer(id: $id) {\n      id\n      name\n      email\n      phone\n      notes\n      marketingConsent\n      marketingConsentAt\n      erasedAt\n      createdAt\n      bookingCount\n      noShowCount\n      totalSpent {\n        currency\n        paid\n        refunded\n        net\n      }\n      bookings(first: 50) {\n        totalCount\n        nodes {\n          id\n          reference\n          objectName\n          startTime\n          endTime\n          status\n          totalPrice\n          currency\n        }\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardCustomerDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardUpdateCustomer(\n    $id: ID!\n    $name: String\n    $email: String\n    $phone: String\n    $notes: String\n    $marketingConsent: Boolean\n  ) {\n    updateCustomer(\n      id: $id\n      name: $name\n      email: $email\n      phone: $phone\n      notes: $notes\n      marketingConsent: $marketingConsent\n    ) {\n      id\n    }\n  }\n"): typeof import('./graphql').DashboardUpdateCustomerDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardMergeCustomers($targetId: ID!, $sourceIds: [ID!]!) {\n    mergeCustomers(targetId: $targetId, sourceIds: $sourceIds) {\n      movedBookings\n      mergedIds\n    }\n  }\n"): typeof import('./graphql').DashboardMergeCustomersDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardEraseCustomer($id: ID!) {\n    eraseCustomer(id: $id) {\n      id\n      erasedAt\n    }\n  }\n"): typeof import('./graphql').DashboardEraseCustomerDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardCustomerDuplicates($search: String) {\n    customers(search: $search, first: 10) {\n      id\n      name\n      email\n      phone\n      bookingCount\n    }\n  }\n"): typeof import('./graphql').DashboardCustomerDuplicatesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardCustomers($search: String, $first: Int, $after: String) {\n    customersConnection(search: $search, first: $first, after: $after) {\n      totalCount\n      nodes {\n        id\n        name\n        email\n        phone\n        bookingCount\n        noShowCount\n        erasedAt\n        createdAt\n        totalSpent {\n          currency\n          net\n        }\n      }\n      pageInfo {\n        hasNextPage\n        endCursor\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardCustomersDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardCancellationPolicies {\n    cancellationPolicies {\n      id\n      name\n      isDefault\n      tiers {\n        hoursBeforeStart\n        refundPercent\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardCancellationPoliciesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardCreateCancellationPolicy($name: String!, $isDefault: Boolean, $tiers: [CancellationTierInput!]!) {\n    createCancellationPolicy(name: $name, isDefault: $isDefault, tiers: $tiers) {\n      id\n    }\n  }\n"): typeof import('./graphql').DashboardCreateCancellationPolicyDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardSetDefaultPolicy($id: ID!) {\n    setDefaultCancellationPolicy(id: $id) {\n      id\n    }\n  }\n"): typeof import('./graphql').DashboardSetDefaultPolicyDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardDeleteCancellationPolicy($id: ID!) {\n    deleteCancellationPolicy(id: $id)\n  }\n"): typeof import('./graphql').DashboardDeleteCancellationPolicyDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardPreviewObjects {\n    bookableObjects {\n      id\n      name\n      accommodation {\n        id\n        name\n        timeZone\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardPreviewObjectsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardPriceQuote($objectId: ID!, $startTime: DateTime!, $endTime: DateTime!) {\n    priceQuote(objectId: $objectId, startTime: $startTime, endTime: $endTime) {\n      basePrice\n      adjustments {\n        rule\n        amount\n      }\n      totalPrice\n      currency\n      breakdown\n    }\n  }\n"): typeof import('./graphql').DashboardPriceQuoteDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardPricingRules {\n    pricingRules {\n      id\n      name\n      type\n      active\n      objectIds\n      percent\n      startTime\n      endTime\n      weekdays\n      minDurationMinutes\n      minDaysInAdvance\n    }\n  }\n"): typeof import('./graphql').DashboardPricingRulesDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardPricingRuleObjects {\n    accommodations {\n      id\n      name\n      objects {\n        id\n        name\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardPricingRuleObjectsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardCreatePricingRule(\n    $name: String!\n    $type: String!\n    $percent: Int!\n    $active: Boolean\n    $objectIds: [ID!]\n    $startTime: String\n    $endTime: String\n    $weekdays: [String!]\n    $minDurationMinutes: Int\n    $minDaysInAdvance: Int\n  ) {\n    createPricingRule(\n      name: $name\n      type: $type\n      percent: $percent\n      active: $active\n      objectIds: $objectIds\n      startTime: $startTime\n      endTime: $endTime\n      weekdays: $weekdays\n      minDurationMinutes: $minDurationMinutes\n      minDaysInAdvance: $minDaysInAdvance\n    ) {\n      pricingRule {\n        id\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardCreatePricingRuleDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardUpdatePricingRule(\n    $id: ID!\n    $name: String\n    $type: String\n    $percent: Int\n    $active: Boolean\n    $objectIds: [ID!]\n    $startTime: String\n    $endTime: String\n    $weekdays: [String!]\n    $minDurationMinutes: Int\n    $minDaysInAdvance: Int\n  ) {\n    updatePricingRule(\n      id: $id\n      name: $name\n      type: $type\n      percent: $percent\n      active: $active\n      objectIds: $objectIds\n      startTime: $startTime\n      endTime: $endTime\n      weekdays: $weekdays\n      minDurationMinutes: $minDurationMinutes\n      minDaysInAdvance: $minDaysInAdvance\n    ) {\n      id\n      active\n    }\n  }\n"): typeof import('./graphql').DashboardUpdatePricingRuleDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardDeactivatePricingRule($id: ID!) {\n    deactivatePricingRule(id: $id) {\n      id\n      active\n    }\n  }\n"): typeof import('./graphql').DashboardDeactivatePricingRuleDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  mutation DashboardDeletePricingRule($id: ID!) {\n    deletePricingRule(id: $id)\n  }\n"): typeof import('./graphql').DashboardDeletePricingRuleDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardReportObjects {\n    bookableObjects {\n      id\n      name\n      accommodation {\n        id\n        timeZone\n      }\n    }\n  }\n"): typeof import('./graphql').DashboardReportObjectsDocument;
/**
 * The graphql function is used to parse GraphQL queries into a document that can be used by GraphQL clients.
 */
export function graphql(source: "\n  query DashboardReports(\n    $from: LocalDate!\n    $to: LocalDate!\n    $period: ReportPeriod\n    $objectIds: [ID!]\n    $timeZone: String\n    $cashUpDate: LocalDate!\n  ) {\n    occupancyReport(from: $from, to: $to, objectIds: $objectIds, timeZone: $timeZone) {\n      cells {\n        objectId\n        weekday\n        hour\n        bookedMinutes\n        openMinutes\n      }\n      objects {\n        objectId\n        objectName\n        bookedMinutes\n        openMinutes\n        occupancy\n      }\n    }\n    revenueReport(from: $from, to: $to, period: $period, objectIds: $objectIds, timeZone: $timeZone) {\n      rows {\n        periodStart\n        currency\n        bookings\n        revenue\n      }\n      byObject {\n        objectId\n        objectName\n        currency\n        bookings\n        revenue\n      }\n      totals {\n        currency\n        bookings\n        revenue\n      }\n    }\n    paymentsReport(from: $from, to: $to, period: $period, objectIds: $objectIds, timeZone: $timeZone) {\n      rows {\n        periodStart\n        currency\n        payments\n        paymentCount\n        refunds\n        refundCount\n        net\n      }\n      totals {\n        currency\n        payments\n        refunds\n        net\n      }\n    }\n    cashUpReport(date: $cashUpDate, objectIds: $objectIds, timeZone: $timeZone) {\n      date\n      lines {\n        currency\n        online\n        onlineCount\n        atVenue\n        atVenueCount\n        refundsOnline\n        refundsAtVenue\n        refundCount\n        net\n        cashInHand\n      }\n    }\n    noShowReport(from: $from, to: $to, objectIds: $objectIds, timeZone: $timeZone) {\n      byObject {\n        objectId\n        objectName\n        bookings\n        noShows\n        rate\n      }\n      bookings\n      noShows\n      rate\n    }\n  }\n"): typeof import('./graphql').DashboardReportsDocument;


export function graphql(source: string) {
  return (documents as any)[source] ?? {};
}
