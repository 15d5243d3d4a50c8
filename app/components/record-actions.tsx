import { Form, Link, useNavigation } from "@remix-run/react";

/** What the details pages share around their record: the buttons that post an intent, Edit and Delete. */

/** The intent ("sync", "run", "pause") of the form being submitted, else "". */
export function useSubmittingIntent(): string {
  const navigation = useNavigation();
  return navigation.state === "submitting" ? String(navigation.formData?.get("intent") ?? "") : "";
}

/** A button posting its intent to the page's action. */
export function IntentButton(props: { intent: string; className: string; disabled: boolean; children: React.ReactNode }) {
  return (
    <Form method="post">
      <input type="hidden" name="intent" value={props.intent} />
      <button type="submit" className={props.className} disabled={props.disabled}>
        {props.children}
      </button>
    </Form>
  );
}

/** Edit (its page) and Delete (the confirmation, `?delete=1`, without scrolling to the top). */
export function EditDeleteLinks({ editTo }: { editTo: string }) {
  return (
    <>
      <Link to={editTo} className="btn-secondary">
        Edit
      </Link>
      <Link to="?delete=1" preventScrollReset className="btn-danger">
        Delete
      </Link>
    </>
  );
}
