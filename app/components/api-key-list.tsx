import { Link } from "@remix-run/react";
import type { ApiKey } from "@contract/api-keys";
import { apiKeyScopeLabel, apiKeyStatusLabel } from "@contract/labels";
import { DateTime } from "~/components/date-time";
import { StatusBadge } from "~/components/ui/status-badge";
import { useTimeZone } from "~/root";

function Fact({ label, children }: { label: string; children: React.ReactNode }) {
  return (
    <div>
      <dt className="inline font-medium text-slate-700">{label} </dt>
      <dd className="inline">{children}</dd>
    </div>
  );
}

/**
 * The signed-in user's API keys (issue 38), newest first: each one's name, status and access, the first characters of
 * its token, and when it was made, expires and was last used. A list, not a table: it reads at a phone's width too.
 */
export function ApiKeyList({ keys }: { keys: ApiKey[] }) {
  const timeZone = useTimeZone();
  if (keys.length === 0) {
    return <p className="card px-6 py-8 text-center text-sm text-slate-600">No API keys yet. Create one below to use Tributary from your own programs.</p>;
  }
  const when = (value: string | null, none: string) => (value ? <DateTime value={value} timeZone={timeZone} /> : none);
  return (
    <ul className="card divide-y divide-slate-100" data-testid="api-keys" aria-label="Your API keys, newest first">
      {keys.map((key) => (
        <li key={key.id} data-key-id={key.id} className="flex flex-col gap-3 px-5 py-4 sm:flex-row sm:items-start sm:justify-between">
          <div className="min-w-0">
            <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
              <h3 className="font-semibold break-words text-slate-900">{key.name}</h3>
              <StatusBadge status={apiKeyStatusLabel(key.status)} />
            </div>
            <p className="mt-1 text-sm text-slate-700">
              {apiKeyScopeLabel(key.scope)}
              <span aria-hidden="true"> · </span>
              <span className="sr-only">, key </span>
              <span className="font-mono text-xs text-slate-600">
                {key.prefix}
                <span aria-hidden="true">…</span>
              </span>
            </p>
            <dl className="mt-2 flex flex-wrap gap-x-6 gap-y-1 text-xs text-slate-600">
              <Fact label="Created">
                {when(key.created_at, "")}
                {key.created_by ? ` by ${key.created_by}` : ""}
              </Fact>
              <Fact label={key.status === "expired" ? "Expired" : "Expires"}>{when(key.expires_at, "Never")}</Fact>
              <Fact label="Last used">{when(key.last_used_at, "Not used yet")}</Fact>
              {key.revoked_at ? <Fact label="Revoked">{when(key.revoked_at, "")}</Fact> : null}
            </dl>
          </div>
          {key.status === "revoked" ? null : (
            <Link to={`/settings/api-keys?revoke=${key.id}`} preventScrollReset className="btn-secondary shrink-0 self-start px-3 py-1.5 text-xs text-red-700">
              Revoke<span className="sr-only"> {key.name}</span>
            </Link>
          )}
        </li>
      ))}
    </ul>
  );
}
