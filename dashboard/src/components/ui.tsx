import { useId, useState, type ReactNode, type InputHTMLAttributes, type SelectHTMLAttributes } from 'react';
import { ApiError } from '../api/client';

export function PageHeader({
  title,
  description,
  actions,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
}) {
  return (
    <div className="page-header">
      <div>
        <h1>{title}</h1>
        {description ? <p className="page-description">{description}</p> : null}
      </div>
      {actions ? <div className="page-actions">{actions}</div> : null}
    </div>
  );
}

export function Section({
  title,
  description,
  actions,
  children,
  id,
}: {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  children: ReactNode;
  id?: string;
}) {
  const headingId = useId();
  return (
    <section className="card" aria-labelledby={headingId} id={id}>
      <div className="card-header">
        <div>
          <h2 id={headingId}>{title}</h2>
          {description ? <p className="card-description">{description}</p> : null}
        </div>
        {actions ? <div className="card-actions">{actions}</div> : null}
      </div>
      <div className="card-body">{children}</div>
    </section>
  );
}

interface FieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  hint?: ReactNode;
  error?: string;
}

/** A labelled input; the API's message for this field is shown under it and announced. */
export function Field({ label, hint, error, className, ...input }: FieldProps) {
  const id = useId();
  const hintId = hint ? `${id}-hint` : undefined;
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={`field ${className ?? ''}`}>
      <label htmlFor={id}>{label}</label>
      <input
        id={id}
        aria-invalid={error ? true : undefined}
        aria-describedby={[hintId, errorId].filter(Boolean).join(' ') || undefined}
        {...input}
      />
      {hint ? (
        <p className="field-hint" id={hintId}>
          {hint}
        </p>
      ) : null}
      {error ? (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

interface SelectFieldProps extends SelectHTMLAttributes<HTMLSelectElement> {
  label: string;
  error?: string;
  children: ReactNode;
}

export function SelectField({ label, error, children, className, ...select }: SelectFieldProps) {
  const id = useId();
  const errorId = error ? `${id}-error` : undefined;
  return (
    <div className={`field ${className ?? ''}`}>
      <label htmlFor={id}>{label}</label>
      <select id={id} aria-invalid={error ? true : undefined} aria-describedby={errorId} {...select}>
        {children}
      </select>
      {error ? (
        <p className="field-error" id={errorId}>
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** A group of checkboxes (scopes, doors, events), each labelled by its own name. */
export function CheckboxGroup({
  legend,
  name,
  options,
  defaultChecked = [],
  error,
  hint,
}: {
  legend: string;
  name: string;
  options: { value: string; label: string }[];
  defaultChecked?: string[];
  error?: string;
  hint?: ReactNode;
}) {
  const id = useId();
  return (
    <fieldset className="checkbox-group" aria-describedby={error ? `${id}-error` : undefined}>
      <legend>{legend}</legend>
      {hint ? <p className="field-hint">{hint}</p> : null}
      <div className="checkbox-grid">
        {options.map((option) => (
          <label key={option.value} className="checkbox">
            <input
              type="checkbox"
              name={name}
              value={option.value}
              defaultChecked={defaultChecked.includes(option.value)}
            />
            <span>{option.label}</span>
          </label>
        ))}
      </div>
      {error ? (
        <p className="field-error" id={`${id}-error`}>
          {error}
        </p>
      ) : null}
    </fieldset>
  );
}

/** The message of a failed call, for a whole form or page. */
export function ErrorNotice({ error, title }: { error: unknown; title?: string }) {
  if (!error) return null;
  const message = error instanceof Error ? error.message : typeof error === 'string' ? error : JSON.stringify(error);
  const forbidden = error instanceof ApiError && error.status === 403;
  return (
    <div className="notice notice-error" role="alert">
      <strong>{title ?? (forbidden ? 'Not allowed' : 'Something went wrong')}</strong>
      <span>
        {forbidden && !title ? 'Your role does not allow this. ' : ''}
        {message}
      </span>
    </div>
  );
}

export function SuccessNotice({ children }: { children: ReactNode }) {
  return (
    <div className="notice notice-success" role="status">
      {children}
    </div>
  );
}

export function Loading({ label = 'Loading…' }: { label?: string }) {
  return (
    <p className="loading" role="status">
      <span className="spinner" aria-hidden="true" />
      {label}
    </p>
  );
}

export function Empty({ children }: { children: ReactNode }) {
  return <p className="empty">{children}</p>;
}

/** A table that scrolls sideways on narrow screens instead of breaking the layout. */
export function TableWrap({
  label,
  children,
  stackable = false,
}: {
  label: string;
  children: ReactNode;
  /** On a phone, one card per row (cells need data-label). */ stackable?: boolean;
}) {
  return (
    <div className="table-wrap" role="region" aria-label={label} tabIndex={0}>
      <table className={stackable ? 'stackable' : undefined}>{children}</table>
    </div>
  );
}

const badgeTones: Record<string, string> = {
  PENDING: 'warning',
  CONFIRMED: 'success',
  CANCELLED: 'neutral',
  COMPLETED: 'info',
  NO_SHOW: 'danger',
  PAID: 'success',
  UNPAID: 'warning',
  REFUNDED: 'neutral',
  PARTIALLY_REFUNDED: 'info',
  ACTIVE: 'success',
  PENDING_ACTIVATION: 'warning',
  ACTIVATION_EXPIRED: 'neutral',
  REVOKED: 'danger',
  SUCCEEDED: 'success',
  FAILED: 'danger',
  // Guest notifications: at the peer now; its outcome never recorded (staff check, resend by hand).
  SENDING: 'info',
  UNKNOWN: 'danger',
  online: 'success',
  offline: 'danger',
  allowed: 'success',
  denied: 'danger',
  active: 'success',
  inactive: 'neutral',
  // Device commands (the device protocol's lower-case values).
  pending: 'warning',
  delivered: 'info',
  executed: 'success',
  failed: 'danger',
  expired: 'neutral',
};

export function Badge({ value, label }: { value: string; label?: string }) {
  const text = label ?? value.toLowerCase().replace(/_/g, ' ');
  return <span className={`badge badge-${badgeTones[value] ?? 'neutral'}`}>{text}</span>;
}

/** Shows a secret once as text, with a copy button. */
export function SecretReveal({ label, value, note }: { label: string; value: string; note: string }) {
  const [copied, setCopied] = useState(false);
  const copy = () => {
    void navigator.clipboard?.writeText(value).then(
      () => setCopied(true),
      () => setCopied(false),
    );
  };
  return (
    <div className="secret" role="status">
      <p className="secret-label">{label}</p>
      <div className="secret-row">
        <code className="secret-value">{value}</code>
        <button type="button" className="button button-secondary" onClick={copy}>
          {copied ? 'Copied' : 'Copy'}
        </button>
      </div>
      <p className="field-hint">{note}</p>
    </div>
  );
}

export function Stat({
  label,
  value,
  tone,
}: {
  label: string;
  value: ReactNode;
  tone?: 'success' | 'danger' | 'warning';
}) {
  return (
    <div className={`stat ${tone ? `stat-${tone}` : ''}`}>
      <p className="stat-label">{label}</p>
      <p className="stat-value">{value}</p>
    </div>
  );
}

/** Field errors of a failed mutation, by argument name, in the form's words (see humanize). */
export function fieldErrorOf(error: unknown, field: string, labels: Record<string, string> = {}): string | undefined {
  const message = error instanceof ApiError ? error.fieldError(field) : undefined;
  return message === undefined ? undefined : humanize(message, labels);
}

const euros = (cents: string) =>
  new Intl.NumberFormat('en-GB', { style: 'currency', currency: 'EUR' }).format(Number(cents) / 100);

/**
 * An API message in the form's own units and words: cents become euros, and another argument's
 * name becomes the label the person sees ("must differ from startTime" → `must differ from "From"`).
 */
export function humanize(message: string, labels: Record<string, string> = {}): string {
  let text = message.replace(
    /a whole number of cents from (\d+) to (\d+)/,
    (_m, low: string, high: string) => `an amount from ${euros(low)} to ${euros(high)}`,
  );
  text = text.replace(/(\d+) cents/g, (_m, cents: string) => euros(cents));
  for (const [name, label] of Object.entries(labels))
    text = text.replace(new RegExp(`\\b${name}\\b`, 'g'), `"${label}"`);
  return text;
}

/** The form-level error: shown above the form unless every message sits next to its field. */
export function formLevelError(error: unknown, fields: string[]): unknown {
  if (!(error instanceof ApiError)) return error;
  if (
    error.fieldErrors.length > 0 &&
    error.fieldErrors.every((e) =>
      fields.some((f) => e.field === f || e.field.startsWith(`${f}.`) || e.field.startsWith(`${f}[`)),
    )
  ) {
    return null;
  }
  return error;
}
