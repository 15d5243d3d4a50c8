import { useActionData, useSearchParams } from "@remix-run/react";
import { DeleteDialog } from "~/components/ui/confirm-dialog";
import { ErrorBlock } from "~/components/ui/error-block";
import { EditDeleteLinks, useSubmittingIntent } from "./record-actions";
import { RefreshWithoutScript } from "./refresh-without-script";
import { useRunsInProgress } from "./run-history";
import { BackLink } from "~/components/ui/back-link";

/** What the page's buttons are drawn from: a run is queued or running; the intent being submitted ("" when none). */
export interface RunState {
  inProgress: boolean;
  busyIntent: string;
}

/**
 * The details page of a record that runs (a connector, a transform): the back link to its list, its name (and a
 * badge), the page's buttons then Edit and Delete, the failure of an intent (the page's action answers
 * `{ error, intent }`), the record's details (`children`) or why it could not be loaded (`error`), and the Delete
 * confirmation, which posts intent "delete". While a run is in progress the page re-loads itself, with or without
 * JavaScript.
 */
export function RunnableDetails<T extends { id: string; name: string }>(props: {
  /** "connector": the list is /connectors, "Connectors". */
  noun: string;
  width: string;
  record: T | null;
  runs: readonly { status: string }[];
  badge?(record: T): React.ReactNode;
  buttons(record: T, state: RunState): React.ReactNode;
  error: string;
  /** Intents whose refusal the page shows at its own form (not in the banner under the title). */
  localIntents?: readonly string[];
  /** What deleting it does, after its name: " and its run history will be deleted. …". */
  consequences: string;
  children(record: T): React.ReactNode;
}) {
  const { noun, record } = props;
  const result = useActionData<{ error: string; intent: string }>();
  const [params] = useSearchParams();
  const state = { inProgress: useRunsInProgress(props.runs), busyIntent: useSubmittingIntent() };
  const list = `/${noun}s`;
  const capitalized = noun.charAt(0).toUpperCase() + noun.slice(1);
  const title = <h1 className="text-2xl font-bold tracking-tight text-slate-900">{record?.name ?? capitalized}</h1>;
  return (
    <div className={`mx-auto ${props.width}`}>
      <RefreshWithoutScript active={state.inProgress} />
      <BackLink to={list}>{`${capitalized}s`}</BackLink>
      <div className="mb-6 flex flex-col gap-4 sm:flex-row sm:items-center sm:justify-between">
        {props.badge ? (
          <div className="flex items-center gap-3">
            {title}
            {record ? props.badge(record) : null}
          </div>
        ) : (
          title
        )}
        {record ? (
          <div className="flex flex-wrap gap-3">
            {props.buttons(record, state)}
            <EditDeleteLinks editTo={`${list}/edit/${record.id}`} />
          </div>
        ) : null}
      </div>
      {result?.error && result.intent !== "delete" && !props.localIntents?.includes(result.intent) ? (
        <p role="alert" className="mb-6 rounded-lg border border-red-200 bg-red-50 px-4 py-3 text-sm text-red-800">
          {result.error}
        </p>
      ) : null}
      {record ? props.children(record) : <ErrorBlock message={props.error} />}
      {record && params.get("delete") ? (
        <DeleteDialog noun={noun} record={record} consequences={props.consequences} hidden={{ intent: "delete" }} error={result?.intent === "delete" ? result.error : null} />
      ) : null}
    </div>
  );
}
