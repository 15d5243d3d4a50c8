import { describe, expect, it } from "vitest";
import { createDestinationSchema, PASSWORD_PLACEHOLDER, sqlWithPassword, DESTINATION_MESSAGES as M } from "../../contract/destinations.js";
import { boundValues, ValidationTokens } from "../../backend/integrations/destinations/validation-token.js";

describe("validation tokens", () => {
  const tokens = new ValidationTokens("k".repeat(40));
  const values = boundValues("storage", { project_id: "demo-project", bucket_name: "my-bucket" });
  const token = tokens.sign("owner-1", "storage", "cred-1", values);

  it("verify only the signed owner, integration, credential and values", () => {
    expect(tokens.verify(token, "owner-1", "storage", "cred-1", values)).toBe(true);
    expect(tokens.verify(token, "owner-2", "storage", "cred-1", values)).toBe(false);
    expect(tokens.verify(token, "owner-1", "bigquery", "cred-1", values)).toBe(false);
    expect(tokens.verify(token, "owner-1", "storage", "cred-2", values)).toBe(false);
    expect(tokens.verify(token, "owner-1", "storage", "cred-1", { ...values, bucket_name: "other" })).toBe(false);
    expect(tokens.verify(token, "owner-1", "storage", "cred-1", values, Date.now() + 25 * 3600 * 1000)).toBe(false);
    expect(new ValidationTokens("z".repeat(40)).verify(token, "owner-1", "storage", "cred-1", values)).toBe(false);
    const [body] = token.split(".");
    expect(tokens.verify(`${body}.AAAA`, "owner-1", "storage", "cred-1", values)).toBe(false);
    expect(tokens.verify(undefined, "owner-1", "storage", "cred-1", values)).toBe(false);
  });

  it("treat Snowflake identifiers case-insensitively", () => {
    const a = boundValues("snowflake", { account: "Org-Acct", user: "loader", warehouse: "wh", database: "db", schema: "s" });
    const b = boundValues("snowflake", { account: "org-acct", user: "LOADER", warehouse: "WH", database: "DB", schema: "S" });
    expect(a).toEqual(b);
  });
});

describe("create schema", () => {
  const first = (value: unknown) => {
    const result = createDestinationSchema.safeParse(value);
    return result.success ? null : result.error.issues[0]!.message;
  };
  it("asks for the name first, then the type, then the sub-form", () => {
    expect(first({})).toBe(M.name);
    expect(first({ name: "x" })).toBe(M.integration);
    expect(first({ name: "x", integration_name: "bigquery", project_id: "demo-project", permission_type: "dataset_query_access" })).toBeNull();
    expect(first({ name: "x", integration_name: "snowflake_stage", account: "a", database: "D", schema: "S", user: "U", stage_name: "" })).toBe(M.stageRequired);
    expect(first({ name: "x", integration_name: "local" })).toBeNull();
  });
  it("strips a pasted host suffix from the account", () => {
    const parsed = createDestinationSchema.parse({ name: "x", integration_name: "snowflake", account: "org-acct.snowflakecomputing.com", warehouse: "W", database: "D", schema: "S", user: "U" });
    expect(parsed.account).toBe("org-acct");
  });
});

describe("sqlWithPassword", () => {
  it("puts the password in place of the placeholder with quotes escaped", () => {
    expect(sqlWithPassword(`PASSWORD = '${PASSWORD_PLACEHOLDER}'`, "it's\\x")).toBe("PASSWORD = 'it''s\\\\x'");
  });
});
