import type { DeclaredColumn, DestinationObject, Row } from "../integrations/destinations/index.js";
import type { EmitContext, RecordSink, SourcePlugin } from "../integrations/sources/index.js";

/**
 * What a batch of source records becomes at every destination: the files and the rows of each stream that its source
 * plug-in's emit wrote, with each stream's key and declared columns from the plug-in's manifest (the writers make a
 * stream's table of its declared columns and types, never from the values). The engine knows nothing of what a record
 * is (a meeting, an e-mail, a chat message): a new stream is the plug-in's manifest and emit alone. Object paths and
 * merge keys come from the record ids, so writes are idempotent.
 */

/**
 * Records per batch, unless every writer asks for fewer (`batchRecords`): each batch is one upsertRows call per
 * table and one round of files per destination (a cloud warehouse merges each call).
 */
export const BATCH_RECORDS = 200;

/** What one batch writes to each destination: its objects, then its rows table by table. */
export interface SyncBatch {
  /** Records (meetings, e-mails, …) in the batch. */
  records: number;
  objects: DestinationObject[];
  /** `columns`: the stream's declared columns, which the writers make the table's (its types whatever the values). */
  tables: { table: string; rows: Row[]; key: string[]; columns?: readonly DeclaredColumn[] }[];
}

/**
 * Makes the batches of one source's records: `plugin.emit` writes each record's rows and files, which are kept by
 * stream; the streams in `skip` (those the connector does not sync) are left out. A row or file of a stream the
 * manifest does not declare is the plug-in's bug, and fails the batch.
 */
export function batchMaker<R>(plugin: Pick<SourcePlugin<R>, "manifest" | "emit">, at: EmitContext, skip: ReadonlySet<string> = new Set()): (records: R[]) => SyncBatch {
  const { streams, label } = plugin.manifest;
  const declared = new Set(streams.map((s) => s.name));
  return (records) => {
    /** Each stream's rows so far (null: a stream left out). */
    const lists = new Map<string, Row[] | null>();
    const objects: DestinationObject[] = [];
    const listOf = (stream: string): Row[] | null => {
      let list = lists.get(stream);
      if (list === undefined) {
        if (!declared.has(stream)) throw new Error(`The ${label} source wrote to "${stream}", a stream its manifest does not declare.`);
        list = skip.has(stream) ? null : [];
        lists.set(stream, list);
      }
      return list;
    };
    const sink: RecordSink = {
      row: (stream, row) => void listOf(stream)?.push(row),
      file: (stream, object) => void (listOf(stream) && objects.push(object)),
    };
    for (const record of records) plugin.emit(record, at, sink);
    const tables: SyncBatch["tables"] = [];
    for (const stream of streams) {
      const rows = lists.get(stream.name);
      if (rows?.length) tables.push({ table: stream.name, rows, key: [...stream.primaryKey], columns: stream.columns });
    }
    return { records: records.length, objects, tables };
  };
}
