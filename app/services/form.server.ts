import contentType from "content-type";

/**
 * What every action answers when the request is not a form the app's own pages could have sent. Thrown as a
 * Response, so the action stops there and the page shows the message with a 4xx status, whatever the route.
 */
export const FORM_MESSAGES = {
  unsupportedType:
    "Send this form as a web form (application/x-www-form-urlencoded or multipart/form-data), as the page itself does.",
  unreadable: "This form could not be read: it was cut short or is not well-formed. Please reload the page and send the form again.",
  file: "This form does not take files. Please send it from the page itself.",
  nul: "The form contains a NUL character, which no field accepts. Please remove it and send the form again.",
} as const;

/** A confirm dialog's form names the record it was drawn for; a post naming another one is not acted on. */
export const STALE_FORM = "This form was drawn for another record. Please reload the page and try again.";

/**
 * A cookie-kept draft (a source's or a transform's) stores what the user typed; browsers keep at most 4 KB per
 * cookie, and Remix refuses to write a longer one. Such a post gets a 400 with a sentence instead of a 500.
 */
export const DRAFT_TOO_LONG =
  "What you typed is too long to carry to the next step. Please shorten the name, the description or the other fields and send the form again.";

/** The Set-Cookie value `commit` makes, or a thrown 400 when the draft is too long for a cookie. */
export async function commitDraft(commit: () => Promise<string>): Promise<string> {
  try {
    return await commit();
  } catch (error) {
    if (error instanceof Error && /cookie length/i.test(error.message)) throw refuse(400, DRAFT_TOO_LONG);
    throw error;
  }
}

/** The media types a browser's form posts with (what <form> and Remix's <Form> send). */
const FORM_TYPES = new Set(["application/x-www-form-urlencoded", "multipart/form-data"]);

function refuse(status: 400 | 415, message: string): Response {
  return new Response(message, { status, headers: { "content-type": "text/plain; charset=utf-8" } });
}

/** The request's media type, lower-cased without parameters; null when absent or malformed. */
export function formMediaType(request: Request): string | null {
  const header = request.headers.get("content-type");
  if (!header) return null;
  try {
    return contentType.parse(header).type;
  } catch {
    return null;
  }
}

/**
 * The body of a form post, as FormData (what conform's parseWithZod and the actions read), or a thrown 415/400
 * Response with a plain sentence: not a web form's media type (JSON, text, none at all), a body the platform
 * cannot parse (a broken multipart), a file, or a NUL character, which no field of the app takes and the database
 * cannot store.
 */
export async function readForm(request: Request): Promise<FormData> {
  const type = formMediaType(request);
  if (!type || !FORM_TYPES.has(type)) throw refuse(415, FORM_MESSAGES.unsupportedType);
  let form: FormData;
  try {
    form = await request.formData();
  } catch {
    throw refuse(400, FORM_MESSAGES.unreadable);
  }
  for (const [name, value] of form) {
    if (typeof value !== "string") throw refuse(400, FORM_MESSAGES.file);
    if (name.includes("\0") || value.includes("\0")) throw refuse(400, FORM_MESSAGES.nul);
  }
  return form;
}
