import { useState, type SubmitEvent } from 'react';
import { useNavigate } from 'react-router';
import { formText } from '../form-data';
import { Field, fieldErrorOf } from '../components/ui';

/**
 * The new-password form of a mailed link (reset, invitation): checks that the two passwords agree,
 * saves, then sends the user to sign in with their email filled in and `notice` shown.
 */
export function useNewPasswordForm(save: (password: string) => Promise<{ user: { email: string } }>, notice: string) {
  const navigate = useNavigate();
  const [error, setError] = useState<unknown>(null);
  const [busy, setBusy] = useState(false);
  const submit = (event: SubmitEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const password = formText(form, 'password');
    if (password !== formText(form, 'confirm')) {
      setError(new Error('The two passwords differ.'));
      return;
    }
    setBusy(true);
    setError(null);
    save(password).then(
      ({ user }) => void navigate('/login', { replace: true, state: { email: user.email, notice } }),
      (failure: unknown) => {
        setBusy(false);
        setError(failure);
      },
    );
  };
  return { error, busy, submit };
}

/** The form's two password fields: the new one (focused, with the rule and its error) and the repeat. */
export function NewPasswordFields({ label, error }: { label: string; error: unknown }) {
  return (
    <>
      <Field
        label={label}
        name="password"
        type="password"
        autoComplete="new-password"
        minLength={12}
        required
        // eslint-disable-next-line jsx-a11y/no-autofocus -- the page's one task is this form: focus starts in the field to fill
        autoFocus
        hint="At least 12 characters."
        error={fieldErrorOf(error, 'password')}
      />
      <Field label={`${label} again`} name="confirm" type="password" autoComplete="new-password" required />
    </>
  );
}
