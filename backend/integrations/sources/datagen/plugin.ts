import type { CallbackResponse } from "../../../../contract/sources.js";
import { datagenManifest } from "../../../../contract/integrations/datagen.js";
import { insertCredential } from "../../../db/sources.js";
import type { SourcePlugin } from "../plugin.js";
import type { Meeting } from "../records.js";
import { emitMeeting } from "../kit/meetings.js";
import { generateMeetings } from "./generator.js";

export const datagenPlugin: SourcePlugin<Meeting> = {
  manifest: datagenManifest,
  emit: emitMeeting,
  reader: {
    credential: false,
    async *read(source, window, options): AsyncIterable<Meeting> {
      const meetings = generateMeetings({
        sourceId: source.id,
        company: typeof source.metadata.company === "string" ? source.metadata.company : "",
        from: window.from,
        to: window.to,
        // Volume: the caller's, else the source's own (a number in its metadata), else the default.
        meetingsPerDay: options.meetingsPerDay ?? (typeof source.metadata.meetings_per_day === "number" ? source.metadata.meetings_per_day : undefined),
      });
      yield* meetings;
    },
  },
  setup: {
    callback: {
      method: "POST",
      async run(ctx) {
        const credential = await insertCredential(ctx.services.db, ctx.userId, {
          integrationName: "datagen",
          secret: null,
          metadata: { generator: "tributary-datagen", authenticated_at: new Date().toISOString() },
        });
        const body: CallbackResponse = { credential_id: credential.id, instructions: null, setup_verified: true, message: "Data generator authenticated." };
        return body;
      },
    },
  },
};
