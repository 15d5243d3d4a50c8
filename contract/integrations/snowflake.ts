import { z } from "zod";
import { optionalField, requireField, type DestinationContract, type SettingsCheckMoment } from "./settings.js";

/** Snowflake, as a warehouse (tables, MERGE) or as an internal stage (files, PUT): the user's account, user and password. */

/** orgname-accountname, or a legacy locator with its region (xy12345.us-east-2.aws). */
export const SNOWFLAKE_ACCOUNT_PATTERN = /^[A-Za-z0-9](?:[A-Za-z0-9_-]{0,253}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?){0,3}$/;
/** An unquoted Snowflake identifier: generated SQL uses only these, so it never needs quoting. */
export const SNOWFLAKE_IDENTIFIER_PATTERN = /^[A-Za-z_][A-Za-z0-9_$]{0,254}$/;
export const STAGE_NAME_PATTERN = /^[A-Za-z0-9_]+$/;

/** Spec §5, character for character. */
export const SNOWFLAKE_MESSAGES = {
  account: "Account is required",
  warehouse: "Warehouse is required",
  database: "Database is required",
  schema: "Schema is required",
  user: "Username is required",
  password: "Password is required",
  stageRequired: "Stage name is required",
  stagePattern: "Only A-Z, 0-9 and _ allowed",
} as const;

export const accountField = optionalField(
  z
    .string()
    .trim()
    .transform((v) => v.replace(/\.snowflakecomputing\.com$/i, ""))
    .pipe(z.string().regex(SNOWFLAKE_ACCOUNT_PATTERN, "Account identifier must look like orgname-accountname or xy12345.us-east-2.aws")),
);
const identifier = (what: string) =>
  optionalField(z.string().trim().regex(SNOWFLAKE_IDENTIFIER_PATTERN, `${what} may contain only letters, digits, _ and $, and must start with a letter or _`));
export const stageNameField = optionalField(z.string().trim().regex(STAGE_NAME_PATTERN, SNOWFLAKE_MESSAGES.stagePattern).max(255));

/** Field names other plug-ins use too (a Postgres database is not a Snowflake identifier): checked by checkSettings. */
const IDENTIFIERS = { warehouse: identifier("Warehouse"), database: identifier("Database"), schema: identifier("Schema"), user: identifier("Username") };

/** Both variants take every field (a body to Snowflake's path names its variant by its category). */
const settings = z.object({
  account: accountField,
  user: IDENTIFIERS.user,
  password: z.preprocess((v) => (v === "" ? undefined : v), z.string().max(256, "At most 256 characters").optional()),
  warehouse: IDENTIFIERS.warehouse,
  database: IDENTIFIERS.database,
  schema: IDENTIFIERS.schema,
  stage_name: stageNameField,
});

function checkSnowflake(stage: boolean) {
  return (v: Record<string, unknown>, ctx: z.RefinementCtx, when: SettingsCheckMoment) => {
    for (const [name, schema] of Object.entries(IDENTIFIERS)) {
      const result = schema.safeParse(v[name]);
      if (!result.success) ctx.addIssue({ code: z.ZodIssueCode.custom, path: [name], message: result.error.issues[0]!.message });
    }
    requireField(ctx, v.account, "account", SNOWFLAKE_MESSAGES.account);
    if (!stage) requireField(ctx, v.warehouse, "warehouse", SNOWFLAKE_MESSAGES.warehouse);
    requireField(ctx, v.database, "database", SNOWFLAKE_MESSAGES.database);
    requireField(ctx, v.schema, "schema", SNOWFLAKE_MESSAGES.schema);
    requireField(ctx, v.user, "user", SNOWFLAKE_MESSAGES.user);
    if (when === "test") requireField(ctx, v.password, "password", SNOWFLAKE_MESSAGES.password);
    if (stage) requireField(ctx, v.stage_name, "stage_name", SNOWFLAKE_MESSAGES.stageRequired);
  };
}

const common = [
  { name: "account", label: "Account identifier", input: "text", placeholder: "myorg-myaccount", help: "As in myorg-myaccount.snowflakecomputing.com" },
] as const;
const login = [
  { name: "user", label: "New username", input: "text", placeholder: "TRIBUTARY_USER" },
  { name: "password", label: "Password", input: "password" },
] as const;
const place = [
  { name: "database", label: "Database", input: "text", placeholder: "RAW" },
  { name: "schema", label: "Schema", input: "text", placeholder: "MEETINGS" },
] as const;

export const snowflakeManifest = {
  kind: "destination",
  name: "snowflake",
  label: "Snowflake",
  category: "WAREHOUSE",
  settings,
  fields: [...common, { name: "warehouse", label: "Warehouse", input: "text", placeholder: "TRIBUTARY_WH" }, ...place, ...login],
  secretFields: ["password"],
  needsConnectionTest: true,
  warehouse: true,
  accepts: { objects: true, rows: true },
  checkSettings: checkSnowflake(false),
} satisfies DestinationContract;

export const snowflakeStageManifest = {
  kind: "destination",
  name: "snowflake_stage",
  label: "Snowflake Stage",
  category: "STORAGE",
  settings,
  fields: [...common, ...place, ...login, { name: "stage_name", label: "Stage name", input: "text", placeholder: "TRIBUTARY_STAGE", help: "Letters, digits and _ only." }],
  secretFields: ["password"],
  needsConnectionTest: true,
  warehouse: true,
  accepts: { objects: true, rows: true },
  checkSettings: checkSnowflake(true),
} satisfies DestinationContract;
