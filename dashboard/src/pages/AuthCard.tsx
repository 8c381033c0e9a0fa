import type { ReactNode } from 'react';

/** The signed-out pages' frame (sign-in, forgotten password, reset, invitation): brand, title, text. */
export function AuthCard({
  title,
  description,
  children,
}: {
  title: string;
  description?: ReactNode;
  children: ReactNode;
}) {
  return (
    <div className="login">
      <main className="login-card">
        <div className="login-brand">
          <span className="brand-mark" aria-hidden="true">
            P
          </span>
          <span className="brand-name">Portier</span>
        </div>
        <h1>{title}</h1>
        {description ? <p className="page-description">{description}</p> : null}
        {children}
      </main>
    </div>
  );
}
