import { useState, type SubmitEvent } from 'react';
import { graphql } from '../../gql';
import { useGraphQL, useGraphQLMutation } from '../../api/hooks';
import {
  ErrorNotice,
  Field,
  Loading,
  PageHeader,
  Section,
  SuccessNotice,
  fieldErrorOf,
  formLevelError,
} from '../../components/ui';
import { useSession } from '../../session';
import { formText } from '../../form-data';

// The tenant's guest notification settings (docs/notifications.md) and a test mail to oneself.

const SettingsQuery = graphql(`
  query DashboardNotificationSettings {
    notificationSettings {
      emailEnabled
      smsEnabled
      senderName
      replyTo
      reminderHoursBefore
      emailAvailable
      smsAvailable
    }
  }
`);

const UpdateSettings = graphql(`
  mutation DashboardUpdateNotificationSettings($input: UpdateNotificationSettingsInput!) {
    updateNotificationSettings(input: $input) {
      emailEnabled
      smsEnabled
      senderName
      replyTo
      reminderHoursBefore
    }
  }
`);

const SendTestEmail = graphql(`
  mutation DashboardSendTestNotificationEmail($to: String!) {
    sendTestNotificationEmail(to: $to) {
      success
      error
    }
  }
`);

const FIELDS = ['emailEnabled', 'smsEnabled', 'senderName', 'replyTo', 'reminderHoursBefore'];

export function NotificationsPage() {
  const session = useSession();
  const settings = useGraphQL(['notificationSettings'], SettingsQuery, {});
  const update = useGraphQLMutation(UpdateSettings, [['notificationSettings']]);
  const test = useGraphQLMutation(SendTestEmail);
  const [saved, setSaved] = useState(false);

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => {
      const value = formText(form, name).trim();
      return value === '' ? null : value;
    };
    const hours = text('reminderHoursBefore');
    setSaved(false);
    update.mutate(
      {
        input: {
          emailEnabled: form.get('emailEnabled') === 'on',
          smsEnabled: form.get('smsEnabled') === 'on',
          senderName: text('senderName'),
          replyTo: text('replyTo'),
          reminderHoursBefore: hours === null ? null : Number(hours),
        },
      },
      { onSuccess: () => setSaved(true) },
    );
  };

  const data = settings.data?.notificationSettings;
  return (
    <>
      <PageHeader
        title="Notifications"
        description="What guests are told about their bookings: a mail with the QR code and a calendar invitation, and a text message with the door code."
      />
      <ErrorNotice error={settings.error} />
      {settings.isPending ? (
        <Loading />
      ) : data ? (
        <>
          <Section title="Settings">
            {!data.emailAvailable || !data.smsAvailable ? (
              <p className="card-description">
                {!data.emailAvailable ? 'This installation sends no email (SMTP_URL is not set). ' : ''}
                {!data.smsAvailable ? 'This installation sends no text messages (no SMS provider is set).' : ''}
              </p>
            ) : null}
            <form className="stack" onSubmit={submit} aria-label="Notification settings">
              <ErrorNotice error={formLevelError(update.error, FIELDS)} />
              {saved && !update.isPending ? <SuccessNotice>Settings saved.</SuccessNotice> : null}
              <label className="checkbox">
                <input type="checkbox" name="emailEnabled" defaultChecked={data.emailEnabled} /> Email guests on
                confirmation, reschedule and cancellation
              </label>
              <label className="checkbox">
                <input type="checkbox" name="smsEnabled" defaultChecked={data.smsEnabled} /> Text guests the door code
                on confirmation and reschedule
              </label>
              <Field
                label="Sender name"
                name="senderName"
                defaultValue={data.senderName ?? ''}
                maxLength={100}
                hint="Shown as the mail's sender; empty: the venue's name."
                error={fieldErrorOf(update.error, 'senderName')}
              />
              <Field
                label="Reply-to address"
                name="replyTo"
                type="email"
                defaultValue={data.replyTo ?? ''}
                hint="Where guests' replies go; empty: none."
                error={fieldErrorOf(update.error, 'replyTo')}
              />
              <Field
                label="Reminder (hours before the start)"
                name="reminderHoursBefore"
                type="number"
                min={1}
                max={336}
                defaultValue={data.reminderHoursBefore ?? ''}
                hint="Empty: no reminder. Whole days count on the venue's calendar (24 is the same local time the day before)."
                error={fieldErrorOf(update.error, 'reminderHoursBefore')}
              />
              <div>
                <button type="submit" className="button button-primary" disabled={update.isPending}>
                  Save settings
                </button>
              </div>
            </form>
          </Section>
          <Section title="Test email" description={`A sample mail from this tenant's sender to ${session.user.email}.`}>
            <ErrorNotice error={test.error} />
            {test.data ? (
              <div
                className={`notice ${test.data.sendTestNotificationEmail.success ? 'notice-success' : 'notice-error'}`}
                role="status"
              >
                <strong>{test.data.sendTestNotificationEmail.success ? 'Test email sent' : 'Test email failed'}</strong>
                {test.data.sendTestNotificationEmail.error ? (
                  <span>{test.data.sendTestNotificationEmail.error}</span>
                ) : null}
              </div>
            ) : null}
            <button
              type="button"
              className="button button-secondary"
              disabled={test.isPending || !data.emailAvailable}
              onClick={() => test.mutate({ to: session.user.email })}
            >
              Send me a test email
            </button>
          </Section>
        </>
      ) : null}
    </>
  );
}
