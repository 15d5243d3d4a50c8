import { Field } from "~/components/ui/field";
import { FIELD_PREFIX, GROUP_SCOPES, ListChoice, LoadGroups, ScopeChoice, type SourceSetup } from "../../source-setup";
import type { MeetLists } from "./lists";

const meetSetup: SourceSetup<MeetLists> = {
  fields: ["meet_extraction_scope", "admin_email", "meet_group_id"],
  defaults: { meet_extraction_scope: "ORG" },
  metadata(setup, lists) {
    const inGroup = setup.meet_extraction_scope === "GROUP";
    const group = inGroup ? lists.groups?.find((g) => g.id === setup.meet_group_id) : undefined;
    return {
      meet_extraction_scope: setup.meet_extraction_scope,
      admin_email: setup.admin_email ?? "",
      meet_group_id: inGroup ? (group?.id ?? setup.meet_group_id ?? "") : "",
      meet_group_email: group?.email ?? "",
      meet_group_name: group?.name ?? "",
    };
  },
  complete: (values, strict) => (!strict || !!values.admin_email?.trim()) && (values.meet_extraction_scope !== "GROUP" || !strict || !!values.meet_group_id),
  verifyLabel: "Test Connection",
  Setup: ({ setup, saved, lists, errors, hydrated, saveSetup }) => (
    <>
      <Field name="admin_email" label="Workspace admin e-mail" type="email" idPrefix={FIELD_PREFIX} defaultValue={setup.admin_email ?? ""} error={errors.admin_email?.[0]} />
      <ScopeChoice id="meet-scope" name="meet_extraction_scope" options={GROUP_SCOPES} current={setup.meet_extraction_scope} errors={errors} hydrated={hydrated} saveSetup={saveSetup}>
        <LoadGroups />
      </ScopeChoice>
      {saved.meet_extraction_scope === "GROUP" ? (
        lists.groups ? (
          <ListChoice
            name="meet_group_id"
            label="Google group"
            placeholder="Select a group"
            current={setup.meet_group_id}
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

export default meetSetup;
