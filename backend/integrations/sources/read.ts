import { findCredential, setStatusByCredential, updateCredential } from "../../db/sources.js";
import { integrationLabel } from "../../../contract/sources.js";
import { NotConfigured, PermanentReadError } from "./kit/index.js";
import type { ReaderContext, ReaderServices, ReadOptions, ReadWindow, SourceRow } from "./plugin.js";
import { sourcePlugin } from "./registry.js";
import { ReadTracker } from "./tracker.js";

/**
 * Every record of the source whose time falls in [window.from, window.to), one at a time, from its plug-in, in the
 * plug-in's shape (its emit writes it as rows of its streams). A permanent failure marks the source's credential (and so its sources) "error";
 * a complete read marks it "active".
 */
export async function* readRecords(services: ReaderServices, source: SourceRow, window: ReadWindow, options: ReadOptions = {}): AsyncIterable<unknown> {
  const label = integrationLabel(source.integrationName) ?? source.integrationName;
  const reader = sourcePlugin(source.integrationName)?.reader;
  if (!reader) throw new PermanentReadError(`Reading from ${label} is not available on this server.`);
  if (!reader.credential) {
    yield* reader.read(source, window, options);
    return;
  }
  const credential = source.credentialId ? await findCredential(services.db, source.ownerId, source.credentialId, source.integrationName) : null;
  if (!credential) throw new PermanentReadError(`The ${label} source "${source.name}" has no credential any more. Create the source again to authenticate with ${label}.`);
  const context: ReaderContext = {
    services,
    source,
    credential,
    window,
    options,
    tracker: options.tracker ?? new ReadTracker(),
    async saveSecret(value) {
      const secret = services.secrets.seal(value);
      credential.secret = secret;
      await updateCredential(services.db, source.ownerId, credential.id, { secret });
    },
  };
  try {
    yield* reader.read(context);
  } catch (error) {
    const failure = error instanceof NotConfigured ? new PermanentReadError(error.message) : error;
    if (failure instanceof PermanentReadError) await setStatusByCredential(services.db, source.ownerId, credential.id, "error").catch(() => {});
    throw failure;
  }
  await setStatusByCredential(services.db, source.ownerId, credential.id, "active").catch(() => {});
}
