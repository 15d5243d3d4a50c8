import { ContinueWithScope, GROUP_SCOPES, ListChoice, orgOrUnitSetup, ScopeChoice, type SourceSetup } from "../../source-setup";
import type { OutlookLists } from "./lists";

const outlookSetup: SourceSetup<OutlookLists> = {
  ...orgOrUnitSetup<OutlookLists>(["outlook_extraction_scope", "GROUP"], ["outlook_group_id", "outlook_group_name"], (lists) => lists.groups?.map((g) => [g.id, g.name])),
  verifyLabel: "Test Connection",
  Setup: ({ setup, saved, lists, errors, hydrated, saveSetup }) => (
    <>
      <ScopeChoice id="outlook-scope" name="outlook_extraction_scope" options={GROUP_SCOPES} current={setup.outlook_extraction_scope} errors={errors} hydrated={hydrated} saveSetup={saveSetup}>
        <ContinueWithScope />
      </ScopeChoice>
      {saved.outlook_extraction_scope === "GROUP" ? (
        <ListChoice
          name="outlook_group_id"
          label="Microsoft 365 group"
          placeholder="Select a group"
          current={setup.outlook_group_id}
          errors={errors}
          choices={(lists.groups ?? []).map((g) => [g.id, g.email ? `${g.name} (${g.email})` : g.name])}
        />
      ) : null}
    </>
  ),
};

export default outlookSetup;
