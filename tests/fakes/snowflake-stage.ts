import { createHash, randomUUID } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { SqlError } from "./warehouse-sql.js";

/** A file of a stage as LIST shows it. */
export interface StagedFile {
  /** "<stage name, lower case>/<path in the stage>". */
  name: string;
  size: number;
  /** Hex MD5 of the content. */
  md5: string;
  /** As Snowflake prints it: "Wed, 25 Nov 2026 15:27:31 GMT". */
  last_modified: string;
}

/**
 * The named internal stages of the Snowflake fake. Snowflake answers a PUT with where the client is to upload
 * (command UPLOAD, the local file in src_locations, a stageInfo), and the client uploads itself. The fake answers
 * with the SDK's LOCAL_FS stage type, so the SDK copies the file into stageInfo.location: a folder of this fake
 * per stage (and path in it). LIST reads those folders back, as Snowflake lists a stage.
 */
export class SnowflakeStages {
  private root?: string;

  /** The stage's folder ("DB.SCHEMA.STAGE", upper case), and the folder of `inStage` in it (never outside it). */
  private folder(stage: string, inStage = ""): string {
    this.root ??= mkdtempSync(path.join(os.tmpdir(), "fake-snowflake-stages-"));
    const base = path.join(this.root, stage);
    const folder = path.resolve(base, inStage.replace(/^\/+/, ""));
    if (folder !== base && !folder.startsWith(`${base}${path.sep}`)) throw new SqlError(`SQL compilation error:\ninvalid stage location '@${stage}/${inStage}'`);
    return folder;
  }

  /**
   * The answer's data to PUT 'file://<local file>' '@<stage>[/<path>]' [AUTO_COMPRESS = TRUE|FALSE]
   * [OVERWRITE = TRUE|FALSE] [SOURCE_COMPRESSION = …] [PARALLEL = n], as Snowflake sends it (stageInfo aside).
   * LOCAL_FS overwrites whatever OVERWRITE says: the SDK copies without looking.
   */
  put(stage: string, inStage: string, localFile: string, options: string): Record<string, unknown> {
    const given = new Map<string, string>();
    for (const option of options.trim() ? options.trim().split(/\s+(?=\w+\s*=)/) : []) {
      const m = /^(AUTO_COMPRESS|OVERWRITE|SOURCE_COMPRESSION|PARALLEL)\s*=\s*'?(\w+)'?$/i.exec(option.trim());
      if (!m) throw new SqlError(`SQL compilation error:\nsyntax error: the fake does not understand the PUT option ${JSON.stringify(option)}`);
      given.set(m[1]!.toUpperCase(), m[2]!.toUpperCase());
    }
    const flag = (name: string, fallback: boolean) => (given.has(name) ? given.get(name) === "TRUE" : fallback);
    const queryId = randomUUID();
    return {
      command: "UPLOAD",
      src_locations: [localFile],
      autoCompress: flag("AUTO_COMPRESS", true),
      overwrite: flag("OVERWRITE", false),
      sourceCompression: (given.get("SOURCE_COMPRESSION") ?? "AUTO_DETECT").toLowerCase(),
      parallel: Number(given.get("PARALLEL") ?? 4),
      threshold: 200 * 1024 * 1024,
      clientShowEncryptionParameter: false,
      encryptionMaterial: null,
      stageInfo: {
        locationType: "LOCAL_FS",
        location: this.folder(stage, inStage),
        path: inStage,
        region: null,
        storageAccount: null,
        isClientSideEncrypted: false,
        creds: {},
        presignedUrl: null,
        endPoint: null,
      },
      queryId,
      kind: null,
      operation: "Node",
    };
  }

  /** The stage's files, path in the stage → content. */
  files(stage: string): Map<string, Buffer> {
    const base = this.folder(stage);
    let entries: string[];
    try {
      entries = readdirSync(base, { recursive: true, encoding: "utf8" });
    } catch {
      return new Map();
    }
    return new Map(
      entries
        .filter((entry) => statSync(path.join(base, entry)).isFile())
        .map((entry) => [entry.split(path.sep).join("/"), readFileSync(path.join(base, entry))] as const)
        .sort(([a], [b]) => a.localeCompare(b)),
    );
  }

  /** LIST @<stage>[/<prefix>]: the files whose path in the stage starts with `prefix`. */
  list(stage: string, prefix: string): StagedFile[] {
    const stageName = stage.split(".").at(-1)!.toLowerCase();
    return [...this.files(stage)]
      .filter(([name]) => name.startsWith(prefix.replace(/^\/+/, "")))
      .map(([name, content]) => ({
        name: `${stageName}/${name}`,
        size: content.length,
        md5: createHash("md5").update(content).digest("hex"),
        last_modified: statSync(path.join(this.folder(stage), name)).mtime.toUTCString(),
      }));
  }

  /** Forgets every stage's files. */
  clear() {
    if (this.root) rmSync(this.root, { recursive: true, force: true });
    this.root = undefined;
  }
}
