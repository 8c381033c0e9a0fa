import { Link } from 'react-router';
import { PageHeader } from '../components/ui';

export function NotFoundPage() {
  return (
    <>
      <PageHeader title="Page not found" description="There is no dashboard page at this address." />
      <Link to="/" className="button button-secondary">
        Back to the overview
      </Link>
    </>
  );
}
