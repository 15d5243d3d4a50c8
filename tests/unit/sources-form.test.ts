import { describe, expect, it } from "vitest";
import { parseWithZod } from "@conform-to/zod";
import { createProblems, typeUrl } from "../../app/routes/_app.sources.add.($integrationType)/create.server";
import { buildMetadata, emptyDraft, needsVerification, resetAuthentication, withSetup, type SourceDraft } from "../../app/routes/_app.sources.add.($integrationType)/draft.server";
import { createSourceBodySchema, GMAIL_AUTH_MODES, SOURCE_MESSAGES, sourceFormSchema, UNKNOWN_SOURCE_INTENT } from "../../contract/sources";

const gmailForm = { setupFields: ["gmail_extraction_scope", "admin_email", "gmail_group_id"], authMode: { field: "gmail_auth_mode", modes: GMAIL_AUTH_MODES.map((m) => m.mode), required: SOURCE_MESSAGES.gmailAuthTypeRequired } };

/** The field errors of a form post read by the Create Source schema (null when it passes). */
function errorsOf(fields: Record<string, string>, form: Parameters<typeof sourceFormSchema>[0] = { setupFields: ["company", "format"] }) {
  const formData = new FormData();
  for (const [key, value] of Object.entries(fields)) formData.set(key, value);
  const submission = parseWithZod(formData, { schema: sourceFormSchema(form) });
  return submission.status === "success" ? null : submission.reply().error;
}

describe("the Create Source form's schema (spec §5), each message at its field", () => {
  it("Create needs a name; the other buttons carry an empty one", () => {
    expect(errorsOf({ intent: "create", name: " " })).toEqual({ name: [SOURCE_MESSAGES.nameRequired] });
    expect(errorsOf({ intent: "authenticate" })).toBeNull();
    expect(errorsOf({ intent: "setup", name: "" })).toBeNull();
  });

  it("checks the text's limits on every button, so a draft only ever carries storable text", () => {
    expect(errorsOf({ intent: "authenticate", name: "x".repeat(201) })).toEqual({ name: ["Source name must be 200 characters or fewer"] });
    expect(errorsOf({ intent: "verify", description: "x".repeat(2001) })).toEqual({ description: ["Description must be 2,000 characters or fewer"] });
  });

  it("Authenticate and Create need a Gmail authentication type; Setup does not", () => {
    expect(errorsOf({ intent: "authenticate" }, gmailForm)).toEqual({ gmail_auth_mode: [SOURCE_MESSAGES.gmailAuthTypeRequired] });
    expect(errorsOf({ intent: "create", name: "Mail", gmail_auth_mode: "carrier_pigeon" }, gmailForm)).toEqual({ gmail_auth_mode: [SOURCE_MESSAGES.gmailAuthTypeRequired] });
    expect(errorsOf({ intent: "setup", gmail_auth_mode: "" }, gmailForm)).toBeNull();
    expect(errorsOf({ intent: "create", name: "Mail", gmail_auth_mode: "individual" }, gmailForm)).toBeNull();
  });

  it("a post without one of the form's buttons is refused with a sentence", () => {
    expect(errorsOf({ name: "x" })).toEqual({ intent: [UNKNOWN_SOURCE_INTENT] });
    expect(errorsOf({ intent: "delete" })).toEqual({ intent: [UNKNOWN_SOURCE_INTENT] });
  });
});

describe("Create's checks on what the server holds (spec §5)", () => {
  const datagen = { company: "Acme", format: "zoom" };
  it.each([
    [[null, true, false, null, null], { formErrors: [], fieldErrors: { integration_type: [SOURCE_MESSAGES.integrationRequired] } }],
    [["datagen", false, false, null, datagen], { formErrors: [SOURCE_MESSAGES.mustAuthenticate], fieldErrors: {} }],
    [["teams", true, false, null, { teams_extraction_scope: "ORG" }], { formErrors: [SOURCE_MESSAGES.mustVerify], fieldErrors: {} }],
    [["gmail", true, false, "service_account_verified", { gmail_extraction_scope: "ORG", admin_email: "a@b.co" }], { formErrors: [SOURCE_MESSAGES.mustVerify], fieldErrors: {} }],
    [["datagen", true, false, null, { company: "x".repeat(101), format: "zoom" }], { formErrors: [], fieldErrors: { company: [SOURCE_MESSAGES.companyTooLong] } }],
    [["zoom", true, false, null, { zoom_extraction_scope: "GROUP", zoom_group_id: "" }], { formErrors: [], fieldErrors: { zoom_group_id: [SOURCE_MESSAGES.zoomGroupRequired] } }],
    [["gmail", true, false, "service_account", { gmail_extraction_scope: "ORG", admin_email: "" }], { formErrors: [], fieldErrors: { admin_email: [SOURCE_MESSAGES.adminEmailRequired] } }],
  ] as const)("%o → %o", (args, expected) => {
    expect(createProblems(...(args as unknown as Parameters<typeof createProblems>))).toEqual(expected);
  });

  it("passes a complete datagen setup, and a default-mode Gmail setup without verification", () => {
    const none = { formErrors: [], fieldErrors: {} };
    expect(createProblems("datagen", true, false, null, datagen)).toEqual(none);
    expect(createProblems("gmail", true, false, "service_account", { gmail_extraction_scope: "ORG", admin_email: "admin@acme.example" })).toEqual(none);
  });
});

describe("buildMetadata", () => {
  it("takes names from the loaded lists, not from the form", () => {
    expect(
      buildMetadata("zoom", { zoom_extraction_scope: "GROUP", zoom_group_id: "g1" }, { groups: [{ id: "g1", name: "Sales", total_members: 3 }] }, null),
    ).toEqual({ zoom_extraction_scope: "GROUP", zoom_group_id: "g1", zoom_group_name: "Sales" });
    expect(buildMetadata("zoom", { zoom_extraction_scope: "ORG", zoom_group_id: "g1" }, {}, null)).toEqual({ zoom_extraction_scope: "ORG", zoom_group_id: "", zoom_group_name: "" });
  });

  it("produces a body the backend's schema accepts", () => {
    const metadata = buildMetadata(
      "gmail",
      { gmail_extraction_scope: "GROUP", admin_email: "admin@acme.example", gmail_group_id: "g" },
      { groups: [{ id: "g", name: "Support", email: "support@acme.example" }] },
      "service_account",
    );
    const parsed = createSourceBodySchema.safeParse({ name: "Mail", credentialId: "c", integration_name: "gmail", source_metadata: metadata });
    expect(parsed.success && parsed.data.source_metadata).toMatchObject({ gmail_group_email: "support@acme.example", gmail_auth_mode: "service_account" });
  });
});

describe("draft helpers", () => {
  const authenticated: SourceDraft = {
    ...emptyDraft("u"),
    name: "n",
    description: "d",
    integration: "teams",
    credentialId: "c",
    authStatus: "authenticated",
    verification: "success",
    instructions: { introduction: "i", steps: [] },
    setup: { teams_extraction_scope: "TEAM", team_id: "t1" },
  };

  it("typeUrl carries the typed name and description, and the Gmail mode only for Gmail", () => {
    const sent = { name: "A b", description: "", gmail_auth_mode: "", zoom_group_id: "g" };
    expect(typeUrl("zoom", sent)).toBe("/sources/add/zoom?name=A+b");
    expect(typeUrl("gmail", sent)).toBe("/sources/add/gmail?name=A+b&gmail_auth_mode=");
    expect(typeUrl(null, sent)).toBe("/sources/add?name=A+b");
  });

  it("a new attempt's draft has its own id and nothing in it", () => {
    const [a, b] = [emptyDraft("u"), emptyDraft("u")];
    expect(a.attempt).not.toBe(b.attempt);
    expect(a).toMatchObject({ resume: false, name: "", integration: null, credentialId: null, authStatus: null, setup: {} });
  });

  it("withSetup keeps what the form sent for the draft's integration, and a change to what was verified resets the verification", () => {
    expect(withSetup(authenticated, "teams", { team_id: "t1" })).toMatchObject({ setup: { teams_extraction_scope: "TEAM", team_id: "t1" }, verification: "success" });
    expect(withSetup(authenticated, "teams", { team_id: "t2" })).toMatchObject({ setup: { team_id: "t2" }, verification: "pending" });
    expect(withSetup(authenticated, "zoom", { zoom_group_id: "g" })).toBe(authenticated);
  });

  it("resetAuthentication forgets credential, status, verification, instructions and setup but keeps the text", () => {
    expect(resetAuthentication(authenticated)).toMatchObject({ name: "n", description: "d", integration: null, credentialId: null, authStatus: null, verification: "none", instructions: null, setup: {} });
  });

  it("needsVerification: Teams always, Gmail outside the default mode, others never", () => {
    expect([needsVerification("teams", null), needsVerification("gmail", "service_account"), needsVerification("gmail", "service_account_verified"), needsVerification("zoom", null)]).toEqual([true, false, true, false]);
  });
});
