import { useEffect, useRef, useState } from 'react';

/** A destructive action that asks once more, in place, before it runs. */
export function ConfirmButton({
  label,
  confirmLabel,
  question,
  onConfirm,
  busy,
  tone = 'danger',
}: {
  label: string;
  confirmLabel: string;
  question: string;
  onConfirm: () => void;
  busy?: boolean;
  tone?: 'danger' | 'secondary' | 'primary';
}) {
  const [asking, setAsking] = useState(false);
  const confirmRef = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    if (asking) confirmRef.current?.focus();
  }, [asking]);
  if (!asking) {
    return (
      <button
        type="button"
        className={`button button-${tone === 'danger' ? 'danger-outline' : tone}${tone === 'primary' ? '' : ' button-small'}`}
        onClick={() => setAsking(true)}
      >
        {label}
      </button>
    );
  }
  return (
    <span className="confirm" role="group" aria-label={question}>
      <span className="confirm-question">{question}</span>
      <button
        ref={confirmRef}
        type="button"
        className={`button ${tone === 'primary' ? 'button-primary' : 'button-danger'} button-small`}
        disabled={busy}
        onClick={() => {
          onConfirm();
          setAsking(false);
        }}
      >
        {confirmLabel}
      </button>
      <button type="button" className="button button-secondary button-small" onClick={() => setAsking(false)}>
        Keep
      </button>
    </span>
  );
}
