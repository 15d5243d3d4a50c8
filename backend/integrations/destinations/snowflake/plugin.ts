import { snowflakeManifest, snowflakeStageManifest } from "../../../../contract/integrations/snowflake.js";
import { DESTINATION_MESSAGES as M } from "../../../../contract/destinations.js";
import type { DestinationManifest } from "../../../../contract/integrations/types.js";
import { insertCredential } from "../../../db/destinations.js";
import { ConnectionTestError, listed, type DestinationPlugin } from "../plugin.js";
import { AccessCheckError, accessFailure } from "../kit/access-check.js";
import { checkSnowflakeAccess } from "./client.js";
import { snowflakeInstructions } from "./instructions.js";
import { snowflakeTarget } from "./target.js";
import { snowflakeTransformSetup } from "./transform-setup.js";
import { SnowflakeWarehouse } from "./warehouse.js";
import { SnowflakeWriter } from "./writer.js";

interface SnowflakeSettings extends Record<string, unknown> {
  account?: string;
  user?: string;
  password?: string;
  warehouse?: string;
  database?: string;
  schema?: string;
  stage_name?: string;
}

type Variant = "snowflake" | "snowflake_stage";

const s = (x: string | undefined) => (x ?? "").trim();
const upper = (x: string | undefined) => s(x).toUpperCase();

/** Snowflake as a warehouse (MERGE into tables) or as a stage (PUT files): one plug-in each, sharing all but a few values. */
function snowflakePlugin(manifest: DestinationManifest, variant: Variant): DestinationPlugin<SnowflakeSettings> {
  const stage = variant === "snowflake_stage";
  return {
    manifest,
    authPaths: [variant],
    // Spec §9: a body sent to the warehouse's path with category STORAGE means the stage.
    ...(stage ? {} : { pathVariant: (body: { category?: string }) => (body.category === "STORAGE" ? "snowflake_stage" : "snowflake") }),
    // Snowflake identifiers are case-insensitive.
    boundValues: (v) => ({
      account: s(v.account).toLowerCase(),
      user: upper(v.user),
      warehouse: stage ? "" : upper(v.warehouse),
      database: upper(v.database),
      schema: upper(v.schema),
      stage_name: stage ? upper(v.stage_name) : "",
    }),
    instructions: (v) => snowflakeInstructions({ variant, user: v.user, warehouse: v.warehouse, database: v.database, schema: v.schema, stageName: v.stage_name }),
    async test(v, { ownerId, services }) {
      const target = { account: v.account!, user: v.user!, password: v.password!, warehouse: v.warehouse, database: v.database!, schema: v.schema!, stageName: v.stage_name };
      try {
        await checkSnowflakeAccess(target, variant);
      } catch (error) {
        if (error instanceof AccessCheckError && /incorrect username or password/i.test(error.message)) throw new ConnectionTestError(422, M.credentialsFailed, { cause: error });
        accessFailure(error);
      }
      const credential = await insertCredential(services.db, ownerId, {
        integrationName: variant,
        secret: services.secrets.seal({ password: v.password }),
        metadata: { account: v.account!.toLowerCase(), user: v.user!.toUpperCase() },
      });
      return { credentialId: credential.id, message: "Connection successful" };
    },
    config: (v) => ({
      account: v.account!.toLowerCase(),
      user: v.user!.toUpperCase(),
      ...(stage ? { stage_name: v.stage_name!.toUpperCase() } : { warehouse: v.warehouse!.toUpperCase() }),
      database: v.database!.toUpperCase(),
      schema: v.schema!.toUpperCase(),
    }),
    // The warehouse keeps files as rows of an OBJECTS table; the stage PUTs them under their paths (SnowflakeWriter).
    location: (destination, landed) => {
      const config = destination.config as Record<string, unknown>;
      const schema = `${String(config.database ?? "")}.${String(config.schema ?? "")}`;
      const tables = [...(!stage && landed.folders.length ? ["objects"] : []), ...landed.tables].map((t) => t.toUpperCase());
      const files = stage ? landed.folders.map((f) => `@${schema}.${String(config.stage_name ?? "")}/${f}`) : [];
      return [files.length ? `files in ${listed(files)}` : "", tables.length ? `Snowflake ${schema}: tables ${listed(tables)}` : ""].filter(Boolean).join("; ");
    },
    writer: async (destination, call) => new SnowflakeWriter(await snowflakeTarget(destination, call), variant),
    warehouse: (destination, call) => new SnowflakeWarehouse(destination, call),
    transformSetup: snowflakeTransformSetup,
  };
}

export const snowflakeWarehousePlugin = snowflakePlugin(snowflakeManifest, "snowflake");
export const snowflakeStagePlugin = snowflakePlugin(snowflakeStageManifest, "snowflake_stage");
