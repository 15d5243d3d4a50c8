import { describe, expect, it } from "vitest";
import { buildMetadata, needsVerification, resetAuthentication, typeUrl, validateCreate, type SourceDraft } from "../../app/services/sources.server";
import { createSourceBodySchema, SOURCE_MESSAGES } from "../../contract/sources";

const valid = { name: "Calls", type: "datagen", gmailAuthMode: null, authenticated: true, verified: false, metadata: { company: "Acme", format: "zoom" } };

describe("validateCreate follows spec §5 in order", () => {
  it.each([
    [{ name: " " }, SOURCE_MESSAGES.nameRequired],
    [{ type: null }, SOURCE_MESSAGES.integrationRequired],
    [{ type: "myspace" }, SOURCE_MESSAGES.integrationRequired],
    [{ type: "gmail", gmailAuthMode: null }, SOURCE_MESSAGES.gmailAuthTypeRequired],
    [{ authenticated: false }, SOURCE_MESSAGES.mustAuthenticate],
    [{ type: "teams", metadata: { teams_extraction_scope: "ORG" } }, SOURCE_MESSAGES.mustVerify],
    [{ type: "gmail", gmailAuthMode: "service_account_verified", metadata: { gmail_extraction_scope: "ORG", admin_email: "a@b.co" } }, SOURCE_MESSAGES.mustVerify],
    [{ metadata: { company: "x".repeat(101), format: "zoom" } }, SOURCE_MESSAGES.companyTooLong],
    [{ type: "zoom", metadata: { zoom_extraction_scope: "GROUP", zoom_group_id: "" } }, SOURCE_MESSAGES.zoomGroupRequired],
  ])("%o → %s", (change, message) => {
    expect(validateCreate({ ...valid, ...change })).toBe(message);
  });

  it("passes a complete datagen setup, and a default-mode Gmail setup without verification", () => {
    expect(validateCreate(valid)).toBeNull();
    expect(validateCreate({ ...valid, type: "gmail", gmailAuthMode: "service_account", metadata: { gmail_extraction_scope: "ORG", admin_email: "admin@acme.example" } })).toBeNull();
  });
});

describe("buildMetadata", () => {
  it("takes names from the loaded lists, not from the form", () => {
    expect(
      buildMetadata("zoom", { zoom_extraction_scope: "GROUP", zoom_group_id: "g1" }, { zoomGroups: [{ id: "g1", name: "Sales", total_members: 3 }] }, null),
    ).toEqual({ zoom_extraction_scope: "GROUP", zoom_group_id: "g1", zoom_group_name: "Sales" });
    expect(buildMetadata("zoom", { zoom_extraction_scope: "ORG", zoom_group_id: "g1" }, {}, null)).toEqual({ zoom_extraction_scope: "ORG", zoom_group_id: "", zoom_group_name: "" });
  });

  it("produces a body the backend's schema accepts", () => {
    const metadata = buildMetadata(
      "gmail",
      { gmail_extraction_scope: "GROUP", admin_email: "admin@acme.example", gmail_group_id: "g" },
      { googleGroups: [{ id: "g", name: "Support", email: "support@acme.example" }] },
      "service_account",
    );
    const parsed = createSourceBodySchema.safeParse({ name: "Mail", credentialId: "c", integration_name: "gmail", source_metadata: metadata });
    expect(parsed.success && parsed.data.source_metadata).toMatchObject({ gmail_group_email: "support@acme.example", gmail_auth_mode: "service_account" });
  });
});

describe("draft helpers", () => {
  it("typeUrl carries the typed name and description, and the Gmail mode only for Gmail", () => {
    const params = new URLSearchParams({ name: "A b", description: "", gmail_auth_mode: "" });
    expect(typeUrl("zoom", params)).toBe("/sources/add/zoom?name=A+b");
    expect(typeUrl("gmail", params)).toBe("/sources/add/gmail?name=A+b&gmail_auth_mode=");
  });

  it("resetAuthentication forgets credential, status, verification, instructions and setup but keeps the text", () => {
    const draft: SourceDraft = {
      userId: "u",
      name: "n",
      description: "d",
      integration: "teams",
      gmailAuthMode: null,
      credentialId: "c",
      authStatus: "authenticated",
      verification: "success",
      instructions: { introduction: "i", steps: [] },
      setup: { teams_extraction_scope: "TEAM" },
      oauth: null,
      flash: null,
    };
    expect(resetAuthentication(draft)).toMatchObject({ name: "n", description: "d", integration: null, credentialId: null, authStatus: null, verification: "none", instructions: null, setup: {} });
  });

  it("needsVerification: Teams always, Gmail outside the default mode, others never", () => {
    expect([needsVerification("teams", null), needsVerification("gmail", "service_account"), needsVerification("gmail", "service_account_verified"), needsVerification("zoom", null)]).toEqual([true, false, true, false]);
  });
});
