import { useState, type SubmitEvent } from 'react';
import { graphql } from '../../gql';
import { useGraphQL, useGraphQLMutation } from '../../api/hooks';
import { ErrorNotice, Field, Loading, Section, SuccessNotice, fieldErrorOf, formLevelError } from '../../components/ui';
import { ConfirmButton } from '../../components/ConfirmButton';
import { formText } from '../../form-data';
import { dateTime } from '../../format';

// The venue's own Stripe, SMTP and SMS credentials (docs/payments.md, "Credentials in the
// dashboard"): stored sealed, never shown again (only whether set and a hint), used from the next
// payment or message on; the server's environment variables win, and this says so.

const CredentialsQuery = graphql(`
  query DashboardProviderCredentials {
    providerCredentials {
      stripe {
        set
        hint
        source
        updatedAt
      }
      smtp {
        set
        hint
        source
        updatedAt
      }
      sms {
        set
        hint
        source
        updatedAt
      }
      stripeWebhookUrl
    }
  }
`);

const SetStripe = graphql(`
  mutation DashboardSetStripeCredentials($input: StripeCredentialsInput!) {
    setStripeCredentials(input: $input) {
      stripeWebhookUrl
    }
  }
`);
const SetSmtp = graphql(`
  mutation DashboardSetSmtpCredentials($input: SmtpCredentialsInput!) {
    setSmtpCredentials(input: $input) {
      stripeWebhookUrl
    }
  }
`);
const SetSms = graphql(`
  mutation DashboardSetSmsCredentials($input: SmsCredentialsInput!) {
    setSmsCredentials(input: $input) {
      stripeWebhookUrl
    }
  }
`);
const Clear = graphql(`
  mutation DashboardClearProviderCredentials($provider: CredentialProvider!) {
    clearProviderCredentials(provider: $provider) {
      stripeWebhookUrl
    }
  }
`);

type Status = { set: boolean; hint: string | null; source: string; updatedAt: string | null };
const KEY = ['providerCredentials'];

function StatusLine({ status, variable }: { status: Status; variable: string }) {
  if (status.source === 'ENVIRONMENT')
    return (
      <p className="notice" data-source="ENVIRONMENT">
        The server’s environment sets this ({variable}): it is used{status.set ? ', not the settings stored here' : ''}.
      </p>
    );
  if (status.set)
    return (
      <p className="field-hint" data-source="DASHBOARD">
        Set: <strong>{status.hint}</strong>
        {status.updatedAt ? `, changed ${dateTime(status.updatedAt)}` : ''}. The secret is not shown again; enter new
        values to replace it.
      </p>
    );
  return (
    <p className="field-hint" data-source="NONE">
      Not set.
    </p>
  );
}

function CredentialForm({
  title,
  description,
  status,
  variable,
  fields,
  provider,
  onSave,
  saving,
  error,
  saved,
}: {
  title: string;
  description: string;
  status: Status;
  variable: string;
  fields: { name: string; label: string; type?: string; hint?: string; autoComplete?: string }[];
  provider: 'STRIPE' | 'SMTP' | 'SMS';
  onSave: (values: Record<string, string>) => void;
  saving: boolean;
  error: unknown;
  saved: boolean;
}) {
  const clear = useGraphQLMutation(Clear, [KEY, ['bookingPage']]);
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const data = new FormData(form);
    const values = Object.fromEntries(fields.map((f) => [f.name, formText(data, f.name)]));
    onSave(values);
  };
  return (
    <form className="stack" onSubmit={submit} aria-label={title} data-provider={provider}>
      <h3>{title}</h3>
      <p className="field-hint">{description}</p>
      <StatusLine status={status} variable={variable} />
      <ErrorNotice
        error={
          formLevelError(
            error,
            fields.map((f) => f.name),
          ) ?? clear.error
        }
      />
      {saved ? (
        <SuccessNotice>Saved. Used from the next {provider === 'STRIPE' ? 'payment' : 'message'} on.</SuccessNotice>
      ) : null}
      {fields.map((f) => (
        <Field
          key={f.name}
          name={f.name}
          label={f.label}
          type={f.type ?? 'text'}
          hint={f.hint}
          autoComplete={f.autoComplete ?? 'off'}
          error={fieldErrorOf(error, f.name)}
        />
      ))}
      <div className="inline-actions">
        <button type="submit" className="button button-primary" disabled={saving}>
          {status.set ? 'Replace' : 'Save'}
        </button>
        {status.set ? (
          <ConfirmButton
            label="Remove"
            confirmLabel="Yes, remove"
            question={`Remove the stored ${title} settings?`}
            busy={clear.isPending}
            onConfirm={() => clear.mutate({ provider })}
          />
        ) : null}
      </div>
    </form>
  );
}

/** The section on the Booking page: Stripe, then SMTP and SMS. */
export function ProviderCredentialsSection() {
  const query = useGraphQL(KEY, CredentialsQuery, {});
  const stripe = useGraphQLMutation(SetStripe, [KEY, ['bookingPage']]);
  const smtp = useGraphQLMutation(SetSmtp, [KEY]);
  const sms = useGraphQLMutation(SetSms, [KEY]);
  const [saved, setSaved] = useState<string | null>(null);
  const data = query.data?.providerCredentials;
  const after = (name: string) => ({ onSuccess: () => setSaved(name), onError: () => setSaved(null) });
  return (
    <Section
      title="Payment, mail and SMS accounts"
      description="Your own Stripe, mail server and SMS accounts. Stored encrypted with the server’s secret and never shown again; used at once, no restart. Settings in the server’s environment take precedence."
    >
      <ErrorNotice error={query.error} />
      {query.isPending ? (
        <Loading />
      ) : data ? (
        <div className="stack">
          <CredentialForm
            title="Stripe"
            description={`Guests pay online through your Stripe account. In Stripe, add a webhook endpoint ${data.stripeWebhookUrl} for checkout.session.completed and checkout.session.async_payment_succeeded, and enter its signing secret here.`}
            status={data.stripe}
            variable="STRIPE_SECRET_KEY"
            provider="STRIPE"
            fields={[
              {
                name: 'secretKey',
                label: 'Secret key',
                type: 'password',
                hint: 'sk_live_… or a restricted key rk_live_…',
              },
              { name: 'webhookSecret', label: 'Webhook signing secret', type: 'password', hint: 'whsec_…' },
            ]}
            saving={stripe.isPending}
            error={stripe.error}
            saved={saved === 'stripe'}
            onSave={(v) =>
              stripe.mutate(
                { input: { secretKey: v.secretKey ?? '', webhookSecret: v.webhookSecret ?? '' } },
                after('stripe'),
              )
            }
          />
          <CredentialForm
            title="Mail server (SMTP)"
            description="Guests’ confirmations, reminders and receipts are sent through it."
            status={data.smtp}
            variable="SMTP_URL"
            provider="SMTP"
            fields={[
              {
                name: 'smtpUrl',
                label: 'SMTP address',
                type: 'password',
                hint: 'smtp://user:password@host:587 or smtps://user:password@host:465',
              },
              {
                name: 'from',
                label: 'From address',
                type: 'email',
                hint: 'e.g. bookings@your-venue.com',
                autoComplete: 'email',
              },
            ]}
            saving={smtp.isPending}
            error={smtp.error}
            saved={saved === 'smtp'}
            onSave={(v) => smtp.mutate({ input: { smtpUrl: v.smtpUrl ?? '', from: v.from ?? '' } }, after('smtp'))}
          />
          <CredentialForm
            title="SMS (Twilio)"
            description="Door codes and confirmations by SMS."
            status={data.sms}
            variable="SMS_ACCOUNT_SID"
            provider="SMS"
            fields={[
              { name: 'accountSid', label: 'Account SID' },
              { name: 'authToken', label: 'Auth token', type: 'password' },
              { name: 'from', label: 'Sender', hint: 'A number (+4930…) or a name' },
            ]}
            saving={sms.isPending}
            error={sms.error}
            saved={saved === 'sms'}
            onSave={(v) =>
              sms.mutate(
                { input: { accountSid: v.accountSid ?? '', authToken: v.authToken ?? '', from: v.from ?? '' } },
                after('sms'),
              )
            }
          />
        </div>
      ) : null}
    </Section>
  );
}
