import { useState } from 'react';
import { graphql } from '../../gql';
import { useGraphQL, useGraphQLMutation } from '../../api/hooks';
import { ConfirmButton } from '../../components/ConfirmButton';
import { ErrorNotice, Loading, Section, SuccessNotice } from '../../components/ui';

const GuestLinkQuery = graphql(`
  query DashboardGuestLink($bookingId: ID!) {
    guestLink(bookingId: $bookingId) {
      bookingId
      manageUrl
    }
  }
`);

const RevokeGuestLink = graphql(`
  mutation DashboardRevokeGuestLink($bookingId: ID!) {
    revokeGuestLink(bookingId: $bookingId) {
      bookingId
      manageUrl
    }
  }
`);

/**
 * The guest's manage link (PUBLIC_URL/b/{token}, docs/booking-page.md): copy it for a guest who lost
 * their mail, or revoke it (every link given out stops working) when it reached the wrong person.
 * Only for bookings:write: the link can cancel and move the booking.
 */
export function GuestLink({ bookingId }: { bookingId: string }) {
  const link = useGraphQL(['bookings', bookingId, 'guestLink'], GuestLinkQuery, { bookingId });
  const revoke = useGraphQLMutation(RevokeGuestLink, [['bookings', bookingId, 'guestLink']]);
  const [copied, setCopied] = useState(false);
  const url = link.data?.guestLink.manageUrl;
  const copy = () => {
    if (!url) return;
    void navigator.clipboard?.writeText(url).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <Section
      title="Guest link"
      description="The guest's own page of this booking: door key, calendar file, receipt, pay, change the time, cancel. Give it to the guest only."
    >
      <ErrorNotice error={link.error ?? revoke.error} />
      {revoke.isSuccess ? (
        <SuccessNotice>
          Guest link revoked. The old link no longer opens the booking; the new one is below.
        </SuccessNotice>
      ) : null}
      {link.isPending ? (
        <Loading />
      ) : url ? (
        <div className="stack">
          <p className="break">
            <a href={url} target="_blank" rel="noreferrer" data-guest-link>
              {url}
            </a>
          </p>
          <div className="button-row">
            <button type="button" className="button button-secondary" onClick={copy}>
              {copied ? 'Copied' : 'Copy guest link'}
            </button>
            <ConfirmButton
              label="Revoke guest link"
              confirmLabel="Yes, revoke"
              question="Revoke the guest link? Every link sent so far stops working; send the guest the new one."
              busy={revoke.isPending}
              onConfirm={() => {
                setCopied(false);
                revoke.mutate({ bookingId });
              }}
            />
          </div>
        </div>
      ) : null}
    </Section>
  );
}
