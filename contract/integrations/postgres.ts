import { z } from "zod";
import { storable } from "../text.js";
import type { DestinationContract, SettingsCheckMoment } from "./settings.js";
import type { SettingField } from "./types.js";

/** The PostgreSQL destination: tables (upserted on the record keys) and transcript files as rows of one table. */

export const POSTGRES_MESSAGES = {
  host: "Host is required",
  hostPattern: "Host must be a host name (db.example.com) or an IP address",
  port: "Port must be a whole number from 1 to 65535",
  database: "Database is required",
  databasePattern: "Database may contain only letters, digits, _, $ and -, and must start with a letter or _",
  schema: "Schema is required",
  schemaPattern: "Schema may contain only letters, digits, _ and $, and must start with a letter or _",
  user: "Username is required",
  userPattern: "Username may contain only letters, digits, _, $, ., @ and -, and must start with a letter or _",
  password: "Password is required",
} as const;

export const DEFAULT_POSTGRES_PORT = 5432;

/** A DNS name (RFC 1123 labels), an IPv4 address, or an IPv6 address (bare or in brackets). */
const HOST_PATTERN = /^(?:[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?(?:\.[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*\.?|\[?[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*\]?)$/;
/** Postgres names are at most 63 bytes; these stay within ASCII, so 63 characters. */
const DATABASE_PATTERN = /^[A-Za-z_][A-Za-z0-9_$-]{0,62}$/;
/** Result schemas of transforms follow it too. */
export const POSTGRES_SCHEMA_PATTERN = /^[A-Za-z_][A-Za-z0-9_$]{0,62}$/;
const USER_PATTERN = /^[A-Za-z_][A-Za-z0-9_$.@-]{0,62}$/;

/** "" and missing are the same (a form sends every field). */
const optional = <T extends z.ZodTypeAny>(schema: T) => z.preprocess((v) => (typeof v === "string" && v.trim() === "" ? undefined : v), schema.optional());
/** A field whose format is checked when given; whether it must be given is checkPostgres's rule. */
const named = (pattern: RegExp, message: string, max = 63) => optional(z.string().trim().max(max, message).regex(pattern, message));

export const postgresSettingsSchema = z.object({
  host: named(HOST_PATTERN, POSTGRES_MESSAGES.hostPattern, 253),
  port: optional(z.coerce.number({ invalid_type_error: POSTGRES_MESSAGES.port }).int(POSTGRES_MESSAGES.port).min(1, POSTGRES_MESSAGES.port).max(65535, POSTGRES_MESSAGES.port)),
  database: named(DATABASE_PATTERN, POSTGRES_MESSAGES.databasePattern),
  schema: named(POSTGRES_SCHEMA_PATTERN, POSTGRES_MESSAGES.schemaPattern),
  user: named(USER_PATTERN, POSTGRES_MESSAGES.userPattern),
  /** Needed by a connection test only: a create carries the tested credential instead. */
  password: z.preprocess((v) => (v === "" ? undefined : v), storable(z.string().max(256, "At most 256 characters"), "Password").optional()),
});

/** The formats of the given fields, then the required ones (the password only for a test: a create holds its credential). */
function checkPostgres(values: Record<string, unknown>, ctx: z.RefinementCtx, when: SettingsCheckMoment): void {
  const parsed = postgresSettingsSchema.safeParse(values);
  if (!parsed.success) for (const issue of parsed.error.issues) ctx.addIssue({ ...issue, code: z.ZodIssueCode.custom, message: issue.message });
  const required = (name: keyof typeof POSTGRES_MESSAGES) => {
    const value = typeof values[name] === "string" ? (values[name] as string).trim() : values[name];
    if (value === undefined || value === null || value === "") ctx.addIssue({ code: z.ZodIssueCode.custom, path: [name], message: POSTGRES_MESSAGES[name] });
  };
  for (const name of ["host", "database", "schema", "user"] as const) required(name);
  if (when === "test") required("password");
}
export type PostgresSettings = z.infer<typeof postgresSettingsSchema>;

const fields: SettingField[] = [
  { name: "host", label: "Host", input: "text", placeholder: "db.example.com", help: "The server's host name or IP address, reachable from the internet." },
  { name: "port", label: "Port", input: "number", placeholder: "5432", defaultValue: String(DEFAULT_POSTGRES_PORT) },
  { name: "database", label: "Database", input: "text", placeholder: "analytics" },
  { name: "schema", label: "Schema", input: "text", placeholder: "tributary", help: "Tributary creates it if it does not exist, and its tables in it." },
  { name: "user", label: "Username", input: "text", placeholder: "tributary" },
  { name: "password", label: "Password", input: "password", help: "Stored encrypted; only used to connect." },
];

export const postgresManifest = {
  kind: "destination",
  name: "postgres",
  label: "PostgreSQL",
  category: "WAREHOUSE",
  settings: postgresSettingsSchema,
  fields,
  secretFields: ["password"],
  needsConnectionTest: true,
  warehouse: true,
  accepts: { objects: true, rows: true },
  checkSettings: checkPostgres,
} satisfies DestinationContract;
