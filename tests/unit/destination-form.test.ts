import { describe, expect, it } from "vitest";
import { parseWithZod } from "@conform-to/zod";
import { DESTINATION_MANIFESTS } from "../../contract/integrations/destinations";
import { fingerprint, schemaFor } from "../../app/components/destination-form/schemas";
import { createBody, echoValues, instructionsBody, testBody, updateBody } from "../../app/services/destinations.server";

/** The app's destination form is drawn and sent from the manifests: these pin what it sends for each type. */

const form = (values: Record<string, string>) => {
  const data = new FormData();
  for (const [key, value] of Object.entries(values)) data.append(key, value);
  return data;
};
const errorsOf = (mode: "create" | "edit", intent: string, values: Record<string, string>) => {
  const submission = parseWithZod(form({ intent, ...values }), { schema: schemaFor(mode, intent) });
  return submission.status === "success" ? [] : [...new Set(Object.values(submission.error ?? {}).flat())];
};

describe("what the form sends to the backend", () => {
  it("tests Cloud Storage with the body spec §7 names", () => {
    const fields = { name: "Bucket", type: "storage", project_id: "demo-project", bucket_name: "landing", service_account_email: "sa@x.iam.gserviceaccount.com", credential_id: "c1", permission_type: "dataset_write" };
    expect(testBody("storage", fields)).toEqual({
      integration_name: "storage",
      category: "STORAGE",
      name: "Bucket",
      label: "Google Cloud Storage",
      project_id: "demo-project",
      bucket_name: "landing",
      service_account_email: "sa@x.iam.gserviceaccount.com",
      credential_id: "c1",
      permission_type: "dataset_write",
    });
  });

  it("tests a Snowflake stage with its own fields and the password; instructions never carry the password", () => {
    const fields = { type: "snowflake_stage", account: "org-acct", database: "RAW", schema: "M", user: "LOADER", password: "pw", stage_name: "LANDING", warehouse: "ignored" };
    expect(testBody("snowflake_stage", fields)).toMatchObject({ integration_name: "snowflake_stage", category: "STORAGE", account: "org-acct", user: "LOADER", password: "pw", stage_name: "LANDING" });
    expect(testBody("snowflake_stage", fields)).not.toHaveProperty("warehouse");
    expect(instructionsBody("snowflake_stage", fields)).toEqual({ category: "STORAGE", account: "org-acct", database: "RAW", schema: "M", user: "LOADER", stage_name: "LANDING" });
  });

  it("creates with the type's name, label and category, and echoes no secret", () => {
    const fields = { name: "Snow", type: "snowflake", intent: "create", account: "a-b", password: "pw", validation_token: "t" };
    expect(createBody("snowflake", fields)).toMatchObject({ name: "Snow", integration_name: "snowflake", integration_label: "Snowflake", category: "WAREHOUSE", account: "a-b" });
    expect(createBody("snowflake", fields)).not.toHaveProperty("type");
    expect(echoValues(fields, ["password"])).toEqual({ name: "Snow", type: "snowflake", account: "a-b" });
  });

  it("updates the settings only where an update may change them (spec §7)", () => {
    const fields = { name: "N", description: "", project_id: "demo-project", dataset_name: "analytics", credential_id: "c", validation_token: "t", account: "x" };
    expect(updateBody("bigquery", fields)).toMatchObject({ name: "N", project_id: "demo-project", dataset_name: "analytics", credential_id: "c", validation_token: "t" });
    expect(updateBody("snowflake", fields)).toEqual({ name: "N", description: "" });
  });

  it.each(DESTINATION_MANIFESTS.map((m) => [m.name, m] as const))("%s: a test sends every field of its manifest", (name, manifest) => {
    const fields = Object.fromEntries(manifest.fields.map((f) => [f.name, `v-${f.name}`]));
    expect(testBody(name, fields)).toMatchObject({ integration_name: name, category: manifest.category, label: manifest.label, ...fields });
  });
});

describe("the form's rules (spec §5)", () => {
  it("asks for the Google settings before testing, in the spec's words", () => {
    expect(errorsOf("create", "test", { type: "storage" })).toEqual([
      "Please enter your GCP Project ID before testing connection",
      "Please enter your Google Cloud Storage bucket name before testing connection",
    ]);
    expect(errorsOf("create", "create", { name: "x", type: "bigquery", project_id: "demo-project", permission_type: "dataset_write" })).toEqual(["Please enter your BigQuery dataset name"]);
  });

  it("asks for every Snowflake field before a test, the password included", () => {
    expect(errorsOf("create", "test", { type: "snowflake" })).toEqual(
      expect.arrayContaining(["Account is required", "Warehouse is required", "Database is required", "Schema is required", "Username is required", "Password is required"]),
    );
  });

  it("needs a name and a type to create, and nothing else for the local folder", () => {
    expect(errorsOf("create", "create", {})).toEqual(expect.arrayContaining(["Please enter a destination name", "Please select an integration type"]));
    expect(errorsOf("create", "create", { name: "Folder", type: "local" })).toEqual([]);
  });

  it("checks on edit only the settings an update may change", () => {
    expect(errorsOf("edit", "update", { name: "N", type: "snowflake" })).toEqual([]);
    expect(errorsOf("edit", "update", { name: "N", type: "storage", project_id: "demo-project" })).toEqual(["Please enter your Google Cloud Storage bucket name"]);
  });
});

describe("fingerprint", () => {
  it("changes with a tested setting, not with the password (never sent back to the page)", () => {
    const base = { account: "a", warehouse: "W", database: "D", schema: "S", user: "U", password: "p1" };
    expect(fingerprint("snowflake", { ...base, password: "p2" })).toBe(fingerprint("snowflake", base));
    expect(fingerprint("snowflake", { ...base, warehouse: "W2" })).not.toBe(fingerprint("snowflake", base));
    expect(fingerprint("bigquery", { project_id: "p", dataset_name: "d", permission_type: "dataset_write" })).not.toBe(
      fingerprint("bigquery", { project_id: "p", dataset_name: "d", permission_type: "dataset_query_access" }),
    );
  });
});
