import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { migrationsFolder } from "../../backend/db/migrate.js";

/**
 * A copy of the migrations folder as it was up to migration `last` (its files and its journal), for a test that builds a
 * database at an older schema and then migrates it (tests/backend/migration-*.test.ts).
 */
export function migrationsUpTo(last: number): string {
  const folder = mkdtempSync(path.join(os.tmpdir(), "tributary-migrations-"));
  cpSync(migrationsFolder, folder, { recursive: true });
  for (const file of readdirSync(folder)) if (/^\d{4}_/.test(file) && Number(file.slice(0, 4)) > last) rmSync(path.join(folder, file));
  const journalPath = path.join(folder, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalPath, "utf8")) as { entries: { idx: number }[] };
  journal.entries = journal.entries.filter((entry) => entry.idx <= last);
  writeFileSync(journalPath, JSON.stringify(journal));
  return folder;
}
