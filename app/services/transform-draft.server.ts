import { createCookieSessionStorage, redirect } from "@remix-run/node";
import { z } from "zod";
import { TRANSFORM_FILE_TYPES, TRANSFORM_FREQUENCIES } from "@contract/transforms";
import { env } from "./env.server";
import { commitDraft } from "./form.server";

/**
 * The transform wizard's progress (add → template select → permissions → config),
 * kept on the server side of the browser in a signed cookie of its own (DESIGN §5):
 * it survives reloads and works without JavaScript. Nothing secret is in it, and
 * the backend checks everything again at creation.
 */
const draftSchema = z.object({
  name: z.string(),
  description: z.string(),
  connector_id: z.string(),
  frequency: z.enum(TRANSFORM_FREQUENCIES),
  file_type: z.enum(TRANSFORM_FILE_TYPES),
  template_id: z.string().optional(),
  /** Permission steps completed so far (1-based; 0 = none). */
  steps_done: z.number().int().min(0).default(0),
  requirement_inputs: z.record(z.string()).default({}),
  permissions_setup: z.boolean().default(false),
});
export type WizardDraft = z.infer<typeof draftSchema>;

interface DraftSession {
  draft: WizardDraft;
}
interface DraftFlash {
  notice: string;
}

let storage: ReturnType<typeof createCookieSessionStorage<DraftSession, DraftFlash>> | undefined;
function draftStorage() {
  storage ??= createCookieSessionStorage<DraftSession, DraftFlash>({
    cookie: {
      name: "__tributary_transform",
      httpOnly: true,
      sameSite: "lax",
      path: "/transforms",
      secure: env().secureCookies,
      secrets: [env().cookieSecret],
      // A wizard left for a day starts again.
      maxAge: 60 * 60 * 24,
    },
  });
  return storage;
}

const session = (request: Request) => draftStorage().getSession(request.headers.get("cookie"));

/** The draft of this browser, or null when there is none (or it no longer parses). */
export async function readDraft(request: Request): Promise<WizardDraft | null> {
  const parsed = draftSchema.safeParse((await session(request)).get("draft"));
  return parsed.success ? parsed.data : null;
}

/** A Set-Cookie header value that stores `draft`. */
export async function saveDraft(request: Request, draft: WizardDraft): Promise<string> {
  const s = await session(request);
  s.set("draft", draftSchema.parse(draft));
  return commitDraft(() => draftStorage().commitSession(s));
}

/** A Set-Cookie header value that forgets the draft. */
export async function clearDraft(request: Request): Promise<string> {
  return draftStorage().destroySession(await session(request));
}

/** The one-shot notice set by `requireDraft` (read on /transforms/add), and the header that consumes it. */
export async function takeNotice(request: Request): Promise<{ notice: string | null; setCookie: string | null }> {
  const s = await session(request);
  const notice = s.get("notice") ?? null;
  return { notice, setCookie: notice ? await draftStorage().commitSession(s) : null };
}

export const MISSING_DRAFT_NOTICE = "Your transform setup was not found (it may have expired). Please start again here.";
export const MISSING_TEMPLATE_NOTICE = "Please choose a template first.";
export const MISSING_PERMISSIONS_NOTICE = "Please complete the permissions setup first.";

/** The draft, or a redirect to where the wizard has to start again (with a notice). */
export async function requireDraft(request: Request, needs: { template?: boolean; permissions?: boolean } = {}): Promise<WizardDraft> {
  const s = await session(request);
  const parsed = draftSchema.safeParse(s.get("draft"));
  let to: string | null = null;
  let notice = MISSING_DRAFT_NOTICE;
  if (!parsed.success) to = "/transforms/add";
  else if (needs.template && !parsed.data.template_id) {
    to = "/transforms/templates/select";
    notice = MISSING_TEMPLATE_NOTICE;
  } else if (needs.permissions && !parsed.data.permissions_setup) {
    to = "/transforms/templates/permissions";
    notice = MISSING_PERMISSIONS_NOTICE;
  }
  if (to === null && parsed.success) return parsed.data;
  s.flash("notice", notice);
  throw redirect(to!, { headers: { "set-cookie": await draftStorage().commitSession(s) } });
}
