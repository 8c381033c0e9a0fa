import { Link } from 'react-router';
import { PageHeader } from '../components/ui';
import { useSession } from '../session';

/** A page the signed-in user's role may not open (a staff user at an admin address). */
export function NotAllowedPage({ page }: { page: string }) {
  const session = useSession();
  return (
    <>
      <PageHeader title="Not allowed" />
      <div className="notice notice-error" role="alert">
        <strong>Not allowed</strong>
        <span>
          {page} is for admins; you are signed in as {session.user.role.toLowerCase()}. Ask an admin of{' '}
          {session.tenant.name} if you need it.
        </span>
      </div>
      <p>
        <Link to="/" className="button button-secondary">
          Back to the overview
        </Link>
      </p>
    </>
  );
}
