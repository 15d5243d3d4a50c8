import { createHash } from "node:crypto";
import { storageClient, type PlatformServiceAccount } from "../kit/google.js";
import { checkName, checkObjectPath, scalar, type DestinationObject, type DestinationWriter, type Row } from "../writer.js";

/** A row's object name: the hash of its key values, so a key written again overwrites its object. */
const keyOf = (row: Row, key: string[]) => createHash("sha256").update(JSON.stringify(key.map((k) => scalar(row[k] ?? null)))).digest("hex");

/** Cloud Storage: objects as named; rows as one JSON object per key under tables/<table>/. */
export class GcsWriter implements DestinationWriter {
  constructor(
    private readonly account: PlatformServiceAccount,
    private readonly projectId: string,
    private readonly bucketName: string,
  ) {}

  async writeObjects(objects: DestinationObject[]): Promise<void> {
    const bucket = storageClient(this.account, this.projectId).bucket(this.bucketName);
    for (const object of objects) {
      await bucket.file(checkObjectPath(object.path)).save(typeof object.body === "string" ? object.body : Buffer.from(object.body), {
        resumable: false,
        contentType: object.contentType ?? "application/octet-stream",
      });
    }
  }

  async upsertRows(table: string, rows: Row[], key: string[]): Promise<void> {
    checkName("table", table);
    await this.writeObjects(rows.map((row) => ({ path: `tables/${table}/${keyOf(row, key)}.json`, body: JSON.stringify(row), contentType: "application/json" })));
  }

  async close(): Promise<void> {}
}
