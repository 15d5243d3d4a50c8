import { ContinueWithScope, GROUP_SCOPES, ListChoice, members, orgOrUnitSetup, ScopeChoice, type SourceSetup } from "../../source-setup";
import type { ZoomLists } from "./lists";

const zoomSetup: SourceSetup<ZoomLists> = {
  ...orgOrUnitSetup<ZoomLists>(["zoom_extraction_scope", "GROUP"], ["zoom_group_id", "zoom_group_name"], (lists) => lists.groups?.map((g) => [g.id, g.name])),
  Setup: ({ setup, saved, lists, errors, hydrated, saveSetup }) => (
    <>
      <ScopeChoice id="zoom-scope" name="zoom_extraction_scope" options={GROUP_SCOPES} current={setup.zoom_extraction_scope} errors={errors} hydrated={hydrated} saveSetup={saveSetup}>
        <ContinueWithScope />
      </ScopeChoice>
      {saved.zoom_extraction_scope === "GROUP" ? (
        <ListChoice
          name="zoom_group_id"
          label="Zoom group"
          placeholder="Select a group"
          current={setup.zoom_group_id}
          errors={errors}
          choices={(lists.groups ?? []).map((g) => [g.id, `${g.name} (${members(g.total_members)})`])}
        />
      ) : null}
    </>
  ),
};

export default zoomSetup;
