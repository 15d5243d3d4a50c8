import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { defineSource } from "../../contract/integrations/source-kit.js";
import { PLATFORM_FILE_TYPES, sourceFileTypes } from "../../contract/integrations/sources.js";
import type { StreamManifest } from "../../contract/integrations/streams.js";
import { datagenManifest } from "../../contract/integrations/datagen.js";
import { LocalWriter } from "../../backend/integrations/destinations/local/index.js";
import { kindOf } from "../../backend/integrations/destinations/writer.js";
import { generateMeetings } from "../../backend/integrations/sources/datagen/index.js";
import type { EmailMessage } from "../../backend/integrations/sources/gmail/records.js";
import { SOURCE_PLUGINS, type SourcePlugin } from "../../backend/integrations/sources/index.js";
import { batchMaker, writeRecords } from "../../backend/sync/index.js";
import { filesUnder } from "../support/files.js";

/**
 * Issue #37, streams: each source plug-in declares its streams in its manifest (name, key, typed columns, cursor,
 * files), its emit writes a record as rows of them, and the sync engine writes whatever streams a plug-in has.
 */

const SOURCE = "0b7f5c1e-8a2d-4e6f-9c3b-1d2e3f4a5b6c";
const to = new Date("2026-11-20T00:00:00Z");
const meetings = () => [...generateMeetings({ sourceId: SOURCE, company: "Acme Rockets", from: new Date(to.getTime() - 86_400_000), to, meetingsPerDay: 4 })];
const message: EmailMessage = {
  id: "18c2f0a1b2c3d4e5",
  thread_id: "18c2f0a1b2c3d4e0",
  from: "Ada Byron <ada@example.test>",
  to: ["grace@example.test"],
  cc: [],
  subject: "Renewal",
  sent_at: new Date("2026-11-19T09:30:00Z"),
  snippet: "Shall we renew?",
  body_text: "Shall we renew?\n",
  labels: ["INBOX"],
  mailbox: "grace@example.test",
};
/** A record of each plug-in, and the platforms it may be of. */
const samples: Record<string, { records: unknown[]; platforms: string[] }> = {
  datagen: { records: meetings(), platforms: ["zoom", "gong"] },
  zoom: { records: meetings(), platforms: ["zoom"] },
  teams: { records: meetings(), platforms: ["teams"] },
  gmail: { records: [message], platforms: ["gmail"] },
  meet: { records: meetings(), platforms: ["meet"] },
  outlook: { records: [message], platforms: ["outlook"] },
};

const extension = (file: string) => file.slice(file.lastIndexOf("."));

describe("every source plug-in's streams", () => {
  for (const plugin of SOURCE_PLUGINS as SourcePlugin[]) {
    const { name, streams } = plugin.manifest;
    it(`${name}: each row has exactly its stream's columns, of their declared types, its key filled; each file is of a declared type`, () => {
      const sample = samples[name];
      expect(sample, `a sample record for ${name}`).toBeDefined();
      for (const platform of sample!.platforms) {
        const batch = batchMaker(plugin, { platform, sourceId: SOURCE })(sample!.records);
        expect(batch.records).toBe(sample!.records.length);
        expect(batch.tables.map((t) => t.table)).toEqual(streams.map((s) => s.name));
        for (const table of batch.tables) {
          const stream = streams.find((s) => s.name === table.table)!;
          expect(table.key).toEqual([...stream.primaryKey]);
          expect(stream.columns.map((c) => c.name)).toContain(stream.cursorField);
          const types = new Map(stream.columns.map((c) => [c.name, c.type]));
          for (const row of table.rows) {
            expect(Object.keys(row).sort()).toEqual([...types.keys()].sort());
            for (const [column, value] of Object.entries(row)) {
              const kind = kindOf(value);
              if (kind !== null) expect(`${column}: ${kind}`).toBe(`${column}: ${types.get(column)}`);
            }
            for (const k of stream.primaryKey) expect(row[k]).toBeTruthy();
          }
        }
        const declared = sourceFileTypes(name, platform);
        expect(batch.objects.length).toBeGreaterThan(0);
        for (const object of batch.objects) {
          expect(declared).toContain(extension(object.path));
          expect(object.path.startsWith(`${platform}/${SOURCE}/`)).toBe(true);
        }
      }
    });
  }

  it("the platforms' file types come from the manifests", () => {
    expect(PLATFORM_FILE_TYPES).toEqual({ zoom: [".vtt", ".txt"], gong: [".json", ".txt"], teams: [".vtt", ".txt"], gmail: [".json", ".txt"], meet: [".vtt", ".txt"], outlook: [".json", ".txt"] });
    expect(sourceFileTypes("datagen")).toEqual([".vtt", ".txt", ".json"]);
    expect(sourceFileTypes("datagen", "gong")).toEqual([".json", ".txt"]);
  });
});

describe("the sync engine's batches (batchMaker)", () => {
  const datagen = SOURCE_PLUGINS.find((p) => p.manifest.name === "datagen")!;

  it("leaves out the streams it is told to skip, with their files", () => {
    const records = meetings();
    const lines = records.reduce((n, m) => n + m.utterances.length, 0);
    const noLines = batchMaker(datagen, { platform: "zoom", sourceId: SOURCE }, new Set(["transcript_utterances"]))(records);
    expect(noLines.tables.map((t) => [t.table, t.rows.length])).toEqual([["meetings", records.length]]);
    expect(noLines.objects).toHaveLength(records.length * 2);
    const noMeetings = batchMaker(datagen, { platform: "zoom", sourceId: SOURCE }, new Set(["meetings"]))(records);
    expect(noMeetings.tables.map((t) => [t.table, t.rows.length])).toEqual([["transcript_utterances", lines]]);
    expect(noMeetings.objects).toEqual([]);
  });

  it("refuses a row of a stream the manifest does not declare", () => {
    const wrong = { ...datagen, emit: (_r: unknown, _at: unknown, out: { row: (s: string, r: Record<string, string>) => void }) => out.row("chats", { id: "1" }) };
    expect(() => batchMaker(wrong, { platform: "zoom", sourceId: SOURCE })([{}])).toThrow('The Data Generator source wrote to "chats", a stream its manifest does not declare.');
  });
});

describe("a new kind of record: a chat-message stream, in a plug-in of this test alone", () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "tributary-streams-"));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  interface Chat {
    id: string;
    channel: string;
    author: string;
    sentAt: Date;
    text: string;
    reactions: string[];
  }
  const chatStream: StreamManifest = {
    name: "chat_messages",
    label: "Chat messages",
    primaryKey: ["message_id"],
    cursorField: "sent_at",
    columns: [
      { name: "message_id", type: "string", description: "The message's id" },
      { name: "channel", type: "string", description: "Where it was posted" },
      { name: "author", type: "string", description: "Who wrote it" },
      { name: "sent_at", type: "timestamp", description: "When" },
      { name: "text", type: "string", description: "What it says" },
      { name: "reactions", type: "json", description: "Its reactions" },
    ],
    files: { chat: [".json"] },
  };
  const chatPlugin: Pick<SourcePlugin<Chat>, "manifest" | "emit"> = {
    manifest: { ...defineSource({ ...datagenManifest, name: "chat", label: "Team chat", platforms: ["chat"], streams: [chatStream] }) },
    emit(chat, { platform, sourceId }, out) {
      out.row("chat_messages", { message_id: chat.id, channel: chat.channel, author: chat.author, sent_at: chat.sentAt, text: chat.text, reactions: chat.reactions });
      out.file("chat_messages", { path: `${platform}/${sourceId}/${chat.sentAt.toISOString().slice(0, 10)}/${chat.id}.json`, body: JSON.stringify(chat) });
    },
  };
  const chats: Chat[] = Array.from({ length: 30 }, (_, i) => ({
    id: `c${i}`,
    channel: i % 2 ? "#sales" : "#support",
    author: `user${i % 3}`,
    sentAt: new Date(Date.UTC(2026, 10, 19, 9, i)),
    text: `message ${i}`,
    reactions: i % 5 ? [] : ["thumbsup"],
  }));

  it("lands in the local warehouse and folder through the unchanged engine and writer, once however often it is written", async () => {
    for (let round = 0; round < 2; round++) {
      const writer = new LocalWriter(dir);
      try {
        const result = await writeRecords([{ name: "Disk", writer }], chats, batchMaker(chatPlugin, { platform: "chat", sourceId: SOURCE }), 7);
        expect(result.records).toBe(30);
      } finally {
        await writer.close();
      }
    }
    const reader = new LocalWriter(dir);
    try {
      expect(await reader.query("SELECT count(*)::INT AS n, count(DISTINCT message_id)::INT AS d, count(*) FILTER (WHERE channel = '#sales')::INT AS sales FROM chat_messages")).toEqual([{ n: 30, d: 30, sales: 15 }]);
      expect(await reader.query("SELECT text, json_extract_string(reactions, '$[0]') AS reaction FROM chat_messages WHERE message_id = 'c5'")).toEqual([{ text: "message 5", reaction: "thumbsup" }]);
    } finally {
      await reader.close();
    }
    expect(filesUnder(path.join(dir, "files")).filter((f) => f.startsWith(`chat/${SOURCE}/2026-11-19/`))).toHaveLength(30);
  });
});
