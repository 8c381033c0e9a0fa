import { useState } from 'react';
import { ApiError, csrfHeaders, fetchRetryingOverload } from '../api/client';
import { useSession } from '../session';
import { ErrorNotice } from './ui';

/**
 * "Export CSV": fetches one of the API's streamed CSV exports (`path` under the tenant, e.g.
 * `bookings/export.csv`) with the session (cookie and X-CSRF-Token, as every dashboard call) and
 * saves it under the server's file name.
 */
export function ExportCsvButton({
  path,
  query,
  fileName,
  label = 'Export CSV',
  accept = 'text/csv',
}: {
  path: string;
  query?: URLSearchParams;
  fileName: string;
  /** The button's name; several exports on one page each say which. */
  label?: string;
  accept?: string;
}) {
  const session = useSession();
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const href = `/api/v1/tenants/${encodeURIComponent(session.tenant.id)}/${path}${query && query.size > 0 ? `?${query.toString()}` : ''}`;
  const download = async () => {
    setBusy(true);
    setError(null);
    try {
      const response = await fetchRetryingOverload(href, {
        credentials: 'same-origin',
        headers: { accept, ...csrfHeaders() },
      });
      if (!response.ok) {
        const problem = (await response.json().catch(() => null)) as { detail?: string; code?: string } | null;
        throw new ApiError(
          problem?.detail ?? `The export failed (HTTP ${response.status}).`,
          response.status,
          problem?.code,
        );
      }
      const url = URL.createObjectURL(await response.blob());
      const a = document.createElement('a');
      a.href = url;
      a.download = fileName;
      document.body.append(a);
      a.click();
      a.remove();
      setTimeout(() => URL.revokeObjectURL(url), 60_000);
    } catch (e) {
      setError(e);
    } finally {
      setBusy(false);
    }
  };
  return (
    <>
      <button type="button" className="button button-secondary" disabled={busy} onClick={() => void download()}>
        {label}
      </button>
      {error ? <ErrorNotice error={error} title="The export failed" /> : null}
    </>
  );
}
