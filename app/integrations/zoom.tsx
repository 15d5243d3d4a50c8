import { GROUP_SCOPES, ListChoice, LoadGroups, ScopeChoice, type SourceSetup } from "./source-setup";

export const zoomSetup: SourceSetup = {
  fields: ["zoom_extraction_scope", "zoom_group_id"],
  defaults: { zoom_extraction_scope: "ORG" },
  metadata(setup, lists) {
    const group = setup.zoom_extraction_scope === "GROUP" ? lists.zoomGroups?.find((g) => g.id === setup.zoom_group_id) : undefined;
    return {
      zoom_extraction_scope: setup.zoom_extraction_scope,
      zoom_group_id: setup.zoom_extraction_scope === "GROUP" ? (group?.id ?? setup.zoom_group_id ?? "") : "",
      zoom_group_name: group?.name ?? "",
    };
  },
  complete: (values, strict) => values.zoom_extraction_scope === "ORG" || (values.zoom_extraction_scope === "GROUP" && (!strict || !!values.zoom_group_id)),
  Setup: ({ setup, saved, lists, hydrated, saveSetup }) => (
    <>
      <ScopeChoice id="zoom-scope" name="zoom_extraction_scope" options={GROUP_SCOPES} current={setup.zoom_extraction_scope} hydrated={hydrated} saveSetup={saveSetup}>
        {hydrated ? null : <LoadGroups />}
      </ScopeChoice>
      {saved.zoom_extraction_scope === "GROUP" ? (
        <ListChoice
          name="zoom_group_id"
          label="Zoom group"
          placeholder="Select a group"
          current={setup.zoom_group_id}
          choices={(lists.zoomGroups ?? []).map((g) => [g.id, `${g.name} (${g.total_members} ${g.total_members === 1 ? "member" : "members"})`])}
        />
      ) : null}
    </>
  ),
};
