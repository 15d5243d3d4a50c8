import { startFakeGoogle, type FakeGoogle } from "../fakes/google-admin.js";
import { startFakeMeet, type FakeMeet } from "../fakes/meet.js";

/**
 * The Google a Meet source talks to, as local fakes: the fake Google (tests/fakes/google-admin.ts: the service
 * account's key, its Directory of users and groups) and the fake Meet (tests/fakes/meet.ts: the Meet REST API and the
 * token endpoint its tokens come from, accepting that same service account), and the environment that points the
 * backend at both.
 */
export interface MeetFakes {
  google: FakeGoogle;
  meet: FakeMeet;
  env: Record<string, string>;
  close(): Promise<void>;
}

export async function startMeetFakes(options: { anchor?: Date; maxPageSize?: number; port?: number; google?: FakeGoogle } = {}): Promise<MeetFakes> {
  const ownGoogle = !options.google;
  const google = options.google ?? (await startFakeGoogle({ anchor: options.anchor }));
  const meet = await startFakeMeet({ key: google.key, anchor: options.anchor, maxPageSize: options.maxPageSize, port: options.port });
  return {
    google,
    meet,
    env: meetEnvironment(google, meet),
    async close() {
      await meet.close();
      if (ownGoogle) await google.close();
    },
  };
}

/** The variables a backend reads to reach them (the GMAIL_ and GOOGLE_ ones are the Gmail source's, shared with Meet). */
export function meetEnvironment(google: FakeGoogle, meet: FakeMeet): Record<string, string> {
  return {
    GMAIL_SERVICE_ACCOUNT_KEY: google.serviceAccountKey,
    GOOGLE_TOKEN_URL: google.tokenUrl,
    GOOGLE_ADMIN_BASE_URL: google.url,
    MEET_API_URL: meet.url,
    MEET_TOKEN_URL: meet.tokenUrl,
  };
}
