import type { IntegrationInstructions, ServiceAccountInfo } from "@contract/destinations";
import { destinationSetup } from "~/integrations";
import { CopyButton } from "~/components/ui/copy-button";

/**
 * What the user grants on the destination in the template setup (spec §6): the
 * service account to give access to and the steps (BigQuery), or the SQL to run
 * (Snowflake), each with a copy button; the text stays selectable without JS.
 * A destination whose setup says nothing has to be granted shows that instead.
 */
export function TransformGrants(props: {
  integration: string;
  serviceAccount: ServiceAccountInfo | null;
  instructions: IntegrationInstructions | null;
  error: string | null;
}) {
  const { serviceAccount, instructions } = props;
  const NoGrants = destinationSetup(props.integration).NoGrants;
  if (NoGrants) return <NoGrants />;
  return (
    <div className="space-y-4">
      {props.error ? (
        <p className="rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900" role="status">
          {props.error}
        </p>
      ) : null}
      {serviceAccount ? (
        <div>
          <p className="text-sm font-medium text-slate-800">Service account</p>
          <div className="mt-1 flex gap-2">
            <code
              className="block min-w-0 flex-1 truncate rounded-lg border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-sm text-slate-800"
              aria-label="Service account e-mail"
            >
              {serviceAccount.service_account_email}
            </code>
            <CopyButton text={() => serviceAccount.service_account_email} />
          </div>
          {serviceAccount.description ? <p className="mt-1 text-xs text-slate-600">{serviceAccount.description}</p> : null}
        </div>
      ) : null}
      {instructions ? (
        <div className="rounded-lg border border-slate-200 bg-slate-50 p-4">
          <h3 className="text-sm font-semibold text-slate-900">{instructions.title}</h3>
          {instructions.description ? <p className="mt-1 text-sm text-slate-600">{instructions.description}</p> : null}
          {instructions.steps.length ? (
            <ol className="mt-3 list-decimal space-y-3 pl-5 text-sm text-slate-700">
              {instructions.steps.map((step) => (
                <li key={step.title}>
                  <span className="font-medium text-slate-900">{step.title}.</span> <span className="break-words">{step.description}</span>
                  {step.sql ? <SqlBlock sql={step.sql} label={`SQL for ${step.title}`} /> : null}
                </li>
              ))}
            </ol>
          ) : instructions.instructions.length ? (
            <ol className="mt-3 list-decimal space-y-2 pl-5 text-sm text-slate-700">
              {instructions.instructions.map((line) => (
                <li key={line} className="break-words">
                  {line}
                </li>
              ))}
            </ol>
          ) : null}
          {instructions.sql ? <SqlBlock sql={instructions.sql} label="Setup SQL" /> : null}
        </div>
      ) : null}
    </div>
  );
}

export function SqlBlock({ sql, label }: { sql: string; label: string }) {
  return (
    <div className="mt-3">
      <div className="mb-1 flex justify-end">
        <CopyButton label="Copy SQL" text={() => sql} />
      </div>
      <pre
        tabIndex={0}
        className="max-h-80 overflow-auto rounded-md bg-slate-900 p-3 text-xs leading-relaxed break-words whitespace-pre-wrap text-slate-100"
        aria-label={label}
      >
        <code>{sql}</code>
      </pre>
    </div>
  );
}
