import { DEFAULT_GMAIL_AUTH_MODE } from "@contract/sources";
import { Field } from "~/components/ui/field";
import { FIELD_PREFIX, GROUP_SCOPES, ListChoice, LoadGroups, ScopeChoice, type SourceSetup } from "../../source-setup";
import type { GmailLists } from "./lists";

const gmailSetup: SourceSetup<GmailLists> = {
  fields: ["gmail_extraction_scope", "admin_email", "gmail_group_id"],
  defaults: { gmail_extraction_scope: "ORG" },
  metadata(setup, lists, gmailAuthMode) {
    const group = setup.gmail_extraction_scope === "GROUP" ? lists.groups?.find((g) => g.id === setup.gmail_group_id) : undefined;
    return {
      gmail_extraction_scope: gmailAuthMode === "individual" ? "INDIVIDUAL" : setup.gmail_extraction_scope,
      admin_email: setup.admin_email ?? "",
      gmail_group_id: setup.gmail_extraction_scope === "GROUP" ? (group?.id ?? setup.gmail_group_id ?? "") : "",
      gmail_group_email: group?.email ?? "",
      gmail_group_name: group?.name ?? "",
      gmail_auth_mode: gmailAuthMode ?? DEFAULT_GMAIL_AUTH_MODE,
    };
  },
  complete: (values, strict, gmailMode) =>
    gmailMode === "individual" || ((!strict || !!values.admin_email?.trim()) && (values.gmail_extraction_scope !== "GROUP" || !strict || !!values.gmail_group_id)),
  verifyLabel: "Test Connection",
  // A verified service-account mode first shows the delegation steps.
  authLabel: (mode) => (mode && mode !== DEFAULT_GMAIL_AUTH_MODE && mode !== "individual" ? "Generate Instructions" : null),
  Setup: ({ setup, saved, lists, errors, authMode, hydrated, saveSetup }) =>
    authMode === "individual" ? (
      <p className="text-sm text-slate-700">Tributary reads only the mailbox you signed in with (individual scope). Test the connection to finish.</p>
    ) : (
      <>
        <Field name="admin_email" label="Workspace admin e-mail" type="email" idPrefix={FIELD_PREFIX} defaultValue={setup.admin_email ?? ""} error={errors.admin_email?.[0]} />
        <ScopeChoice id="gmail-scope" name="gmail_extraction_scope" options={GROUP_SCOPES} current={setup.gmail_extraction_scope} errors={errors} hydrated={hydrated} saveSetup={saveSetup}>
          <LoadGroups />
        </ScopeChoice>
        {saved.gmail_extraction_scope === "GROUP" ? (
          lists.groups ? (
            <ListChoice
              name="gmail_group_id"
              label="Google group"
              placeholder="Select a group"
              current={setup.gmail_group_id}
              errors={errors}
              choices={lists.groups.map((g) => [g.id, `${g.name} (${g.email})`])}
            />
          ) : (
            <p className="text-sm text-slate-600">Enter the Workspace admin e-mail, then load the groups.</p>
          )
        ) : null}
      </>
    ),
};

export default gmailSetup;
