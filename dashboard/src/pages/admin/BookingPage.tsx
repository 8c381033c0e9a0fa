import { useId, useState, type ChangeEvent, type SubmitEvent } from 'react';
import { graphql } from '../../gql';
import { useGraphQL, useGraphQLMutation } from '../../api/hooks';
import { ApiError } from '../../api/client';
import {
  Empty,
  ErrorNotice,
  Field,
  Loading,
  PageHeader,
  Section,
  SelectField,
  SuccessNotice,
  fieldErrorOf,
  formLevelError,
} from '../../components/ui';
import { ConfirmButton } from '../../components/ConfirmButton';
import { formText } from '../../form-data';
import { dateTime } from '../../format';
import { ProviderCredentialsSection } from './ProviderCredentials';

// The venue's booking page (docs/booking-page.md, "Settings"): on/off, address, payment, the
// widget's origins, logo, colour, language, the venue's own texts in English and German, VAT; which
// objects it shows; the snippet to embed it; the publishable key.

const PageQuery = graphql(`
  query DashboardBookingPage {
    bookingPageSettings {
      saved
      enabled
      slug
      url
      paymentMode
      onlinePaymentAvailable
      allowedOrigins
      logo
      accentColour
      defaultLocale
      vatRateBasisPoints
      updatedAt
      texts {
        en {
          intro
          cancellationPolicy
          afterBooking
        }
        de {
          intro
          cancellationPolicy
          afterBooking
        }
      }
    }
    viewer {
      id
      name
    }
    bookableObjects {
      id
      name
      published
      accommodation {
        name
      }
    }
    apiKeys {
      id
      kind
      prefix
      publishableKey
      createdAt
      revokedAt
    }
  }
`);

const SaveSettings = graphql(`
  mutation DashboardSaveBookingPage($input: BookingPageSettingsInput!) {
    updateBookingPageSettings(input: $input) {
      saved
      slug
    }
  }
`);

const Publish = graphql(`
  mutation DashboardPublishObjects($ids: [ID!]!, $published: Boolean!) {
    publishObjects(ids: $ids, published: $published) {
      objects {
        id
        published
      }
    }
  }
`);

const CreateKey = graphql(`
  mutation DashboardCreatePublishableKey {
    createPublishableKey {
      apiKey
    }
  }
`);

const RevokeKey = graphql(`
  mutation DashboardRevokePublishableKey($id: ID!) {
    revokeApiKey(id: $id) {
      id
    }
  }
`);

type Settings = NonNullable<ReturnType<typeof usePage>['data']>['bookingPageSettings'];
type Language = 'en' | 'de';
type TextKey = 'intro' | 'cancellationPolicy' | 'afterBooking';

const TEXTS: { key: TextKey; label: string; max: number; rows: number }[] = [
  { key: 'intro', label: 'Introduction', max: 1000, rows: 3 },
  { key: 'cancellationPolicy', label: 'Cancellation policy', max: 4000, rows: 4 },
  { key: 'afterBooking', label: 'After booking', max: 1000, rows: 3 },
];
const LANGUAGES: { code: Language; label: string }[] = [
  { code: 'en', label: 'English' },
  { code: 'de', label: 'German' },
];
const PAYMENT_MODES = [
  { value: 'AT_VENUE', label: 'At the venue', online: false },
  { value: 'ONLINE_REQUIRED', label: 'Online, required to book', online: true },
  { value: 'ONLINE_OPTIONAL', label: 'Online or at the venue (the guest chooses)', online: true },
] as const;
const LOGO_TYPES = ['image/png', 'image/jpeg', 'image/webp'];
const MAX_LOGO_CHARS = 200_000;
const DEFAULT_COLOUR = '#2454d6';
const FIELDS = [
  'enabled',
  'slug',
  'paymentMode',
  'allowedOrigins',
  'logo',
  'accentColour',
  'defaultLocale',
  'texts',
  'vatRateBasisPoints',
];

const usePage = () => useGraphQL(['bookingPage'], PageQuery, {});

/** A suggested address from the venue's name: lowercase letters, digits and hyphens. */
export function slugOf(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/g, '');
}

/** PUBLIC_URL as the settings' address shows it, else this page's own origin. */
function publicUrlOf(settings: Settings): string {
  if (settings.url && settings.slug) return settings.url.slice(0, -`/book/${settings.slug}`.length);
  return window.location.origin;
}

function CopyBlock({ label, value }: { label: string; value: string }) {
  const [copied, setCopied] = useState(false);
  const id = useId();
  const copy = () => {
    void navigator.clipboard?.writeText(value).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <div className="snippet">
      <div className="snippet-header">
        <p className="snippet-label" id={id}>
          {label}
        </p>
        <button type="button" className="button button-secondary button-small" onClick={copy} aria-describedby={id}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <pre className="snippet-code" aria-labelledby={id}>
        <code>{value}</code>
      </pre>
    </div>
  );
}

export function BookingPagePage() {
  const page = usePage();
  const data = page.data;
  return (
    <>
      <PageHeader
        title="Booking page"
        description="Guests book by themselves on your own page or through a widget on your website. Changes apply at once."
      />
      <ErrorNotice error={page.error} />
      {page.isPending ? (
        <Loading />
      ) : data ? (
        <>
          <SettingsForm settings={data.bookingPageSettings} venueName={data.viewer.name} />
          <PublishedObjects objects={data.bookableObjects} />
          <Embed settings={data.bookingPageSettings} />
          <PublishableKey tenantId={data.viewer.id} keys={data.apiKeys} />
          <ProviderCredentialsSection />
        </>
      ) : null}
    </>
  );
}

function SettingsForm({ settings, venueName }: { settings: Settings; venueName: string }) {
  const save = useGraphQLMutation(SaveSettings, [['bookingPage']]);
  const [saved, setSaved] = useState(false);
  const [slug, setSlug] = useState(settings.slug ?? slugOf(venueName));
  const [logo, setLogo] = useState<string | null>(settings.logo ?? null);
  const [logoProblem, setLogoProblem] = useState<string | null>(null);
  const [colour, setColour] = useState(settings.accentColour ?? DEFAULT_COLOUR);
  const publicUrl = publicUrlOf(settings);
  const error = save.error;

  const pickLogo = (event: ChangeEvent<HTMLInputElement>) => {
    const file = event.currentTarget.files?.[0];
    setLogoProblem(null);
    if (!file) return;
    if (!LOGO_TYPES.includes(file.type)) {
      setLogoProblem('Choose a PNG, JPEG or WebP image (SVG is not accepted: it can carry script).');
      return;
    }
    const reader = new FileReader();
    reader.onload = () => {
      const url = typeof reader.result === 'string' ? reader.result : '';
      if (url.length > MAX_LOGO_CHARS) setLogoProblem('This image is too large: at most about 145 KB.');
      else setLogo(url);
    };
    reader.onerror = () => setLogoProblem('The file could not be read.');
    reader.readAsDataURL(file);
  };

  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const text = (name: string) => formText(form, name).trim();
    const vat = text('vatRate');
    const texts = Object.fromEntries(
      LANGUAGES.map(({ code }) => [code, Object.fromEntries(TEXTS.map(({ key }) => [key, text(`${code}.${key}`)]))]),
    );
    setSaved(false);
    save.mutate(
      {
        input: {
          enabled: form.get('enabled') === 'on',
          slug: slug.trim(),
          paymentMode: text('paymentMode') as Settings['paymentMode'],
          allowedOrigins: text('allowedOrigins')
            .split(/\s+/)
            .map((o) => o.trim())
            .filter(Boolean),
          logo,
          accentColour: colour,
          defaultLocale: text('defaultLocale') as Settings['defaultLocale'],
          texts,
          vatRateBasisPoints: vat === '' ? null : Math.round(Number(vat.replace(',', '.')) * 100),
        },
      },
      { onSuccess: () => setSaved(true) },
    );
  };

  const originsError =
    error instanceof ApiError
      ? error.fieldErrors
          .filter((e) => e.field.startsWith('allowedOrigins'))
          .map((e) => e.message)
          .join(' ')
      : '';

  return (
    <Section
      title="Settings"
      description={
        settings.saved
          ? `Last saved ${settings.updatedAt ? dateTime(settings.updatedAt) : ''}.`
          : 'Not saved yet: the page is off.'
      }
    >
      <form className="stack" onSubmit={submit} aria-label="Booking page settings">
        <ErrorNotice error={formLevelError(error, FIELDS)} />
        {saved && !save.isPending ? <SuccessNotice>Settings saved.</SuccessNotice> : null}
        <label className="checkbox">
          <input type="checkbox" name="enabled" defaultChecked={settings.enabled} /> Booking page on (the page, the
          widget and the publishable key answer)
        </label>
        <Field
          label="Address"
          name="slug"
          value={slug}
          onChange={(e) => setSlug(e.currentTarget.value.toLowerCase())}
          required
          maxLength={48}
          className="field-mono"
          hint={
            <>
              Lowercase letters, digits and hyphens. The page:{' '}
              <code className="address">
                {publicUrl}/book/{slug || '…'}
              </code>
            </>
          }
          error={fieldErrorOf(error, 'slug')}
        />
        <fieldset className="checkbox-group" aria-describedby="payment-hint">
          <legend>How guests pay</legend>
          <p className="field-hint" id="payment-hint">
            {settings.onlinePaymentAvailable
              ? 'Online payment goes through Stripe Checkout.'
              : 'Online payment needs Stripe (STRIPE_SECRET_KEY on the server); until then guests pay at the venue.'}
          </p>
          {PAYMENT_MODES.map((mode) => (
            <label key={mode.value} className="checkbox">
              <input
                type="radio"
                name="paymentMode"
                value={mode.value}
                defaultChecked={settings.paymentMode === mode.value}
                disabled={mode.online && !settings.onlinePaymentAvailable}
              />
              <span>{mode.label}</span>
            </label>
          ))}
          {fieldErrorOf(error, 'paymentMode') ? (
            <p className="field-error">{fieldErrorOf(error, 'paymentMode')}</p>
          ) : null}
        </fieldset>
        <div className="form-grid">
          <SelectField
            label="Default language"
            name="defaultLocale"
            defaultValue={settings.defaultLocale}
            error={fieldErrorOf(error, 'defaultLocale')}
          >
            <option value="EN">English</option>
            <option value="DE">German</option>
          </SelectField>
          <Field
            label="VAT rate (%)"
            name="vatRate"
            type="number"
            min={0}
            max={100}
            step={0.01}
            defaultValue={settings.vatRateBasisPoints == null ? '' : String(settings.vatRateBasisPoints / 100)}
            hint="Printed on receipts; empty: no VAT line."
            error={fieldErrorOf(error, 'vatRateBasisPoints')}
          />
          <div className="field">
            <label htmlFor="accent-colour">Accent colour</label>
            <div className="colour-row">
              <input
                id="accent-colour"
                type="color"
                value={colour}
                onChange={(e) => setColour(e.currentTarget.value)}
                aria-describedby="accent-colour-value"
              />
              <code id="accent-colour-value">{colour}</code>
            </div>
            {fieldErrorOf(error, 'accentColour') ? (
              <p className="field-error">{fieldErrorOf(error, 'accentColour')}</p>
            ) : null}
          </div>
        </div>
        <div className="field">
          <label htmlFor="logo-file">Logo</label>
          <div className="logo-row">
            {logo ? (
              <img className="logo-preview" src={logo} alt="Logo preview" />
            ) : (
              <span className="logo-preview logo-empty">No logo</span>
            )}
            <input
              id="logo-file"
              type="file"
              accept={LOGO_TYPES.join(',')}
              onChange={pickLogo}
              aria-describedby="logo-hint"
            />
            {logo ? (
              <button type="button" className="button button-secondary button-small" onClick={() => setLogo(null)}>
                Remove logo
              </button>
            ) : null}
          </div>
          <p className="field-hint" id="logo-hint">
            PNG, JPEG or WebP, at most about 145 KB.
          </p>
          {(logoProblem ?? fieldErrorOf(error, 'logo')) ? (
            <p className="field-error" role="alert">
              {logoProblem ?? fieldErrorOf(error, 'logo')}
            </p>
          ) : null}
        </div>
        <div className="field">
          <label htmlFor="allowed-origins">Websites that may embed the widget</label>
          <textarea
            id="allowed-origins"
            name="allowedOrigins"
            rows={3}
            defaultValue={settings.allowedOrigins.join('\n')}
            placeholder="https://www.your-club.example"
            aria-describedby="allowed-origins-hint"
            aria-invalid={originsError ? true : undefined}
          />
          <p className="field-hint" id="allowed-origins-hint">
            One origin per line, exactly as the browser shows it: https://host, no path (http only for localhost). At
            most 20.
          </p>
          {originsError ? <p className="field-error">{originsError}</p> : null}
        </div>
        <div className="texts-grid">
          {LANGUAGES.map(({ code, label }) => (
            <fieldset key={code} className="stack texts-language">
              <legend>Your texts in {label}</legend>
              {TEXTS.map(({ key, label: textLabel, max, rows }) => {
                const id = `text-${code}-${key}`;
                const message = fieldErrorOf(error, `texts.${code}.${key}`);
                return (
                  <div className="field" key={key}>
                    <label htmlFor={id}>
                      {textLabel} ({label})
                    </label>
                    <textarea
                      id={id}
                      name={`${code}.${key}`}
                      rows={rows}
                      maxLength={max}
                      defaultValue={settings.texts[code][key] ?? ''}
                      aria-invalid={message ? true : undefined}
                    />
                    {message ? <p className="field-error">{message}</p> : null}
                  </div>
                );
              })}
            </fieldset>
          ))}
        </div>
        <div>
          <button type="submit" className="button button-primary" disabled={save.isPending}>
            Save settings
          </button>
        </div>
      </form>
    </Section>
  );
}

type ObjectItem = NonNullable<ReturnType<typeof usePage>['data']>['bookableObjects'][number];

function PublishedObjects({ objects }: { objects: ObjectItem[] }) {
  const publish = useGraphQLMutation(Publish, [['bookingPage']]);
  const [saved, setSaved] = useState(false);
  const submit = async (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const chosen = new Set(new FormData(event.currentTarget).getAll('published').map(String));
    const on = objects.filter((o) => chosen.has(o.id) && !o.published).map((o) => o.id);
    const off = objects.filter((o) => !chosen.has(o.id) && o.published).map((o) => o.id);
    setSaved(false);
    try {
      if (on.length) await publish.mutateAsync({ ids: on, published: true });
      if (off.length) await publish.mutateAsync({ ids: off, published: false });
      setSaved(true);
    } catch {
      // Shown through publish.error.
    }
  };
  return (
    <Section title="Published objects" description="Only the objects ticked here are shown to guests.">
      {objects.length === 0 ? (
        <Empty>No objects yet: create them under Catalog.</Empty>
      ) : (
        <form className="stack" onSubmit={(e) => void submit(e)} aria-label="Published objects">
          <ErrorNotice error={publish.error} />
          {saved && !publish.isPending ? <SuccessNotice>Published objects saved.</SuccessNotice> : null}
          <fieldset className="checkbox-group">
            <legend className="visually-hidden">Objects on the booking page</legend>
            <div className="checkbox-grid">
              {objects.map((o) => (
                <label key={`${o.id}-${String(o.published)}`} className="checkbox">
                  <input type="checkbox" name="published" value={o.id} defaultChecked={o.published} />
                  <span>
                    {o.name} <span className="muted">· {o.accommodation.name}</span>
                  </span>
                </label>
              ))}
            </div>
          </fieldset>
          <div>
            <button type="submit" className="button button-primary" disabled={publish.isPending}>
              Save published objects
            </button>
          </div>
        </form>
      )}
    </Section>
  );
}

function Embed({ settings }: { settings: Settings }) {
  if (!settings.saved || !settings.slug)
    return (
      <Section title="Embed on your website">
        <Empty>Save the settings first: the snippet needs the page’s address.</Empty>
      </Section>
    );
  const publicUrl = publicUrlOf(settings);
  const script = `<script src="${publicUrl}/widget.js" data-venue="${settings.slug}" async></script>`;
  const iframe = `<iframe src="${publicUrl}/book/${settings.slug}?embed=1" title="Book online" width="100%" height="720" style="border:0"></iframe>`;
  return (
    <Section
      title="Embed on your website"
      description="Paste one of these into a page of a website listed above. The widget opens the same booking flow as the page."
    >
      <div className="stack">
        {!settings.enabled ? (
          <p className="notice notice-warning" role="status">
            The booking page is off: the snippet shows nothing until you switch it on.
          </p>
        ) : null}
        <p>
          Your page:{' '}
          <a href={settings.url ?? '#'} target="_blank" rel="noreferrer">
            {settings.url}
          </a>
        </p>
        <CopyBlock label="Widget (script)" value={script} />
        <CopyBlock label="Or an iframe" value={iframe} />
      </div>
    </Section>
  );
}

type KeyItem = NonNullable<ReturnType<typeof usePage>['data']>['apiKeys'][number];

function PublishableKey({ tenantId, keys }: { tenantId: string; keys: KeyItem[] }) {
  const create = useGraphQLMutation(CreateKey, [['bookingPage'], ['apiKeys']]);
  const revoke = useGraphQLMutation(RevokeKey, [['bookingPage'], ['apiKeys']]);
  const current = keys.find((k) => k.kind === 'PUBLISHABLE' && !k.revokedAt);
  return (
    <Section
      title="Publishable key"
      description="For your own website’s code calling Portier from the browser: it can only read the booking page, its published objects, their free slots and prices, and make pending bookings. It is not a secret."
    >
      <div className="stack">
        <ErrorNotice error={create.error ?? revoke.error} />
        {current?.publishableKey ? (
          <>
            <CopyBlock label="Publishable key" value={current.publishableKey} />
            <CopyBlock label="Tenant id (for the REST paths)" value={tenantId} />
            <p className="field-hint">
              Created {dateTime(current.createdAt)}. Browsers may use it only from the websites listed above.
            </p>
            <div className="inline-actions">
              <ConfirmButton
                label="Rotate key"
                confirmLabel="Yes, rotate"
                question="Make a new key? The current one stops working at once."
                tone="secondary"
                busy={create.isPending}
                onConfirm={() => create.mutate({})}
              />
              <ConfirmButton
                label="Revoke key"
                confirmLabel="Yes, revoke"
                question="Revoke the publishable key? Code that uses it stops working at once."
                busy={revoke.isPending}
                onConfirm={() => revoke.mutate({ id: current.id })}
              />
            </div>
          </>
        ) : (
          <>
            <Empty>No publishable key yet.</Empty>
            <div>
              <button
                type="button"
                className="button button-primary"
                disabled={create.isPending}
                onClick={() => create.mutate({})}
              >
                Create publishable key
              </button>
            </div>
          </>
        )}
      </div>
    </Section>
  );
}
