import { Form, Link, useNavigation } from "@remix-run/react";

/**
 * A confirmation reached by a link (`?delete=<id>`), so it works without
 * JavaScript; the confirm button posts the form. With JavaScript the same
 * dialog opens in place without a page load.
 */
interface ConfirmDialogProps {
  title: string;
  body: React.ReactNode;
  confirmLabel: string;
  /** The confirm button's words while it posts. */
  busyLabel?: string;
  cancelTo: string;
  hidden: Record<string, string>;
  error?: string | null;
}

export function ConfirmDialog(props: ConfirmDialogProps) {
  const navigation = useNavigation();
  const busy = navigation.state === "submitting";
  return (
    <div className="fixed inset-0 z-30 flex items-center justify-center bg-slate-900/40 p-4">
      <section role="dialog" aria-modal="true" aria-labelledby="confirm-title" className="card w-full max-w-md p-6 shadow-xl">
        <h2 id="confirm-title" className="text-lg font-semibold text-slate-900">
          {props.title}
        </h2>
        <div className="mt-2 text-sm text-slate-600">{props.body}</div>
        {props.error ? (
          <p role="alert" className="mt-4 rounded-lg border border-red-200 bg-red-50 px-3 py-2 text-sm text-red-800">
            {props.error}
          </p>
        ) : null}
        <Form method="post" className="mt-6 flex justify-end gap-3">
          {Object.entries(props.hidden).map(([name, value]) => (
            <input key={name} type="hidden" name={name} value={value} />
          ))}
          <Link to={props.cancelTo} className="btn-secondary" autoFocus>
            Cancel
          </Link>
          <button type="submit" className="btn-danger" disabled={busy}>
            {busy ? (props.busyLabel ?? "Deleting...") : props.confirmLabel}
          </button>
        </Form>
      </section>
    </div>
  );
}

/**
 * The confirmation of a details page's Delete (/<noun>s/details/<id>?delete=1): "Delete <noun>?", the record's name in
 * bold and `consequences`, what deleting it does (" and its run history will be deleted. … This cannot be undone.").
 */
export function DeleteDialog(props: { noun: string; record: { id: string; name: string }; consequences: string } & Pick<ConfirmDialogProps, "hidden" | "error">) {
  const { noun, record } = props;
  const body = (
    <>
      <strong className="font-semibold text-slate-900">{record.name}</strong>
      {props.consequences}
    </>
  );
  return <ConfirmDialog title={`Delete ${noun}?`} body={body} confirmLabel="Delete" cancelTo={`/${noun}s/details/${record.id}`} hidden={props.hidden} error={props.error} />;
}
