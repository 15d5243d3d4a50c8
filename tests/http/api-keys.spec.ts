import { expect, press, test, type Web } from "./fixtures";

/**
 * Issue 38 item 2, the server's rules of the API keys page, as a browser without JavaScript meets them: an empty
 * form's problems at their fields and in the banner, a day gone by refused at the expiry field with what was typed
 * kept; the token shown once in a selectable field (no copy button without JavaScript) and never again on a fresh
 * load; a live key reads the API through the app's address, a revoked one and the session's cookie alone do not; a
 * confirmation link for a key that is not the user's opens nothing. The page in a browser (made from the profile menu,
 * the token shown once and copied, listed in words, revoked after a confirmation, axe, phone width, pictures) and
 * the form's own checks with JavaScript: tests/e2e/api-keys.spec.ts.
 */

const CREATE = "form#api-key-create";
const NAME_REQUIRED = "Please enter a name for the key";
const SCOPE_REQUIRED = "Please choose what the key may do: read only, or read and write";

/** Makes a key through the page's form; answers the page that shows it, and its token. */
async function createKey(web: Web, values: { name: string; scope: "read" | "read_write" }) {
  const shown = await press(web, await web.open("/settings/api-keys"), CREATE, "Create key", { name: values.name, scope: values.scope });
  expect(shown.text('[data-testid="new-api-key"]')).toContain(`API key created: ${values.name}`);
  return { shown, token: shown.$("#new-api-key-token").text() };
}

test("API keys: an empty form's problems and a day gone by, each at its field", async ({ signedIn }) => {
  // An empty form: each problem at its field and in the banner.
  const empty = await press(signedIn, await signedIn.open("/settings/api-keys"), CREATE, "Create key");
  expect(empty.alertText()).toContain(NAME_REQUIRED);
  expect(empty.alertText()).toContain(SCOPE_REQUIRED);
  expect(empty.fieldError("api-key-name")).toBe(NAME_REQUIRED);
  expect(empty.text("#api-key-scope-error")).toBe(SCOPE_REQUIRED);
  expect(empty.invalid("api-key-name")).toBe(true);

  // A day gone by: the server's check, at the expiry field; what was typed stays.
  const past = await press(signedIn, empty, CREATE, "Create key", { name: "Old report", scope: "read", expires_on: "2020-01-01" });
  expect(past.fieldError("api-key-expires_on")).toBe("The expiry date must be in the future");
  expect(past.value("name", CREATE)).toBe("Old report");
  expect(past.checked("scope")).toEqual(["read"]);
  expect(past.fieldError("api-key-name")).toBeNull();
});

test("API keys: the token once, in a field to select, never on a fresh load; live keys read, revoked ones do not", async ({ signedIn }) => {
  const { shown, token } = await createKey(signedIn, { name: "Nightly report", scope: "read" });
  expect(token).toMatch(/^trb_[0-9A-Za-z]{43}$/);
  // Without JavaScript: no copy button, the token in a read-only field.
  expect(shown.hasButton("Copy key")).toBe(false);
  expect(shown.$("#new-api-key-token").is("[readonly]")).toBe(true);
  const { token: second } = await createKey(signedIn, { name: "Deploy bot", scope: "read_write" });
  expect(second).not.toBe(token);

  // Never again: a fresh load lists the keys without their tokens.
  const fresh = await signedIn.open("/settings/api-keys");
  expect(fresh.$('[data-testid="new-api-key"]')).toHaveLength(0);
  expect(fresh.html).not.toContain(token.slice(12));
  expect(fresh.html).not.toContain(second.slice(12));

  // Revoked after the confirmation its link opens.
  const [revoke] = fresh.links("Revoke Nightly report");
  expect(revoke, "the Revoke link of Nightly report").toBeTruthy();
  const confirming = await signedIn.open(revoke!);
  const revoked = await press(signedIn, confirming, '[role="dialog"] form', "Revoke");
  expect(revoked.url.search).toBe("?revoked=1");

  // The keys at work, through the app's own address (the web server forwards /api to the backend): a live key reads,
  // a revoked one and the session's cookie alone do not.
  const sources = await signedIn.request.get("/api/v1/sources", { headers: { authorization: `Bearer ${second}` } });
  expect(sources.status()).toBe(200);
  expect(await sources.json()).toMatchObject({ data: expect.any(Array), next_cursor: null });
  expect((await signedIn.request.get("/api/v1/sources", { headers: { authorization: `Bearer ${token}` } })).status()).toBe(401);
  expect((await signedIn.request.get("/api/v1/sources")).status()).toBe(401);
  const document = await signedIn.request.get("/api/v1/openapi.json");
  expect((await document.json()).openapi).toMatch(/^3\.1/);
});

test("API keys: a confirmation link for a key that is not the user's opens nothing", async ({ signedIn }) => {
  const page = await signedIn.open("/settings/api-keys?revoke=00000000-0000-4000-8000-000000000000");
  expect(page.headings()).toEqual(["API keys"]);
  expect(page.$('[role="dialog"]')).toHaveLength(0);
});
