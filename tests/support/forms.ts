import { load, type CheerioAPI } from "cheerio";
import type { APIRequestContext, APIResponse } from "@playwright/test";

/**
 * The JavaScript-off path without a browser: what a browser with scripts disabled sends and reads, over real HTTP
 * to the real web server. A GET or a form post (`application/x-www-form-urlencoded`, with the Origin and
 * Sec-Fetch-Site a browser sends) follows the server's redirects as a browser does, keeps its cookies (the flash
 * messages live there), and answers the page it ends on, parsed: its status, its address and its HTML.
 */
export class WebPage {
  readonly $: CheerioAPI;

  constructor(
    readonly status: number,
    readonly url: URL,
    readonly html: string,
    readonly headers: Record<string, string>,
  ) {
    this.$ = load(html);
  }

  /** The page's visible text (scripts and styles left out), whitespace collapsed. */
  text(selector = "body"): string {
    const root = this.$(selector).clone();
    root.find("script, style, template").remove();
    return collapse(root.text());
  }

  /** The text of each element with role="alert" (the form banner, an error block, a dialog's refusal). */
  alerts(): string[] {
    return this.$('[role="alert"]')
      .toArray()
      .map((element) => collapse(this.$(element).text()));
  }

  /** All alerts' text in one string, for "contains" checks. */
  alertText(): string {
    return this.alerts().join(" ");
  }

  /** The error shown under a field, by its control's id (`${prefix}-${name}`): the text of `#${id}-error`, or null. */
  fieldError(id: string): string | null {
    const error = this.$(`#${cssEscape(id)}-error`);
    return error.length ? collapse(error.text()) : null;
  }

  /** Whether the control with this id is marked invalid. */
  invalid(id: string): boolean {
    return this.$(`#${cssEscape(id)}`).attr("aria-invalid") === "true";
  }

  /**
   * The value a form control named `name` would send: an input's value, a textarea's text, a select's chosen
   * option (or its first, as a browser chooses), a checked box's value. The first such control when several share
   * the name (`within` narrows it to a form).
   */
  value(name: string, within = "body"): string | undefined {
    const control = this.$(within).find(`[name="${name}"]`).first();
    if (!control.length) return undefined;
    const tag = control.prop("tagName")?.toLowerCase();
    if (tag === "textarea") return control.text();
    if (tag === "select") {
      const chosen = control.find("option[selected]").first();
      return (chosen.length ? chosen : control.find("option").first()).attr("value") ?? "";
    }
    return control.attr("value") ?? "";
  }

  /** The values of the checked boxes named `name`. */
  checked(name: string): string[] {
    return this.$(`input[name="${name}"][checked]`)
      .toArray()
      .map((element) => this.$(element).attr("value") ?? "on");
  }

  /** The options of the select named `name` (or with this id): their label and value. */
  options(select: string): { label: string; value: string; disabled: boolean }[] {
    return this.$(`select[name="${select}"], select#${cssEscape(select)}`)
      .first()
      .find("option")
      .toArray()
      .map((option) => ({ label: collapse(this.$(option).text()), value: this.$(option).attr("value") ?? "", disabled: this.$(option).is("[disabled]") }));
  }

  /** The text of the page's headings of this level (default: h1). */
  headings(level = 1): string[] {
    return this.$(`h${level}`)
      .toArray()
      .map((element) => collapse(this.$(element).text()));
  }

  /** The hrefs of the links whose text is `name` (exact, whitespace collapsed). */
  links(name: string | RegExp): string[] {
    return this.$("a")
      .toArray()
      .filter((element) => {
        const text = collapse(this.$(element).text());
        return typeof name === "string" ? text === name : name.test(text);
      })
      .map((element) => this.$(element).attr("href") ?? "");
  }

  /** Whether a button with this text (exact) is on the page. */
  hasButton(name: string): boolean {
    return this.$("button").toArray().some((element) => collapse(this.$(element).text()) === name);
  }
}

function collapse(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

function cssEscape(id: string): string {
  return id.replace(/([^A-Za-z0-9_-])/g, "\\$1");
}

/** A form's fields: a record, or pairs where a name repeats (ticked boxes). */
export type FormFields = Record<string, string> | [string, string][];

/** A response as the page a browser shows for it. */
export async function page(response: APIResponse): Promise<WebPage> {
  return new WebPage(response.status(), new URL(response.url()), await response.text(), response.headers());
}

/** Opens `path` as a browser without scripts would, following redirects. */
export async function open(request: APIRequestContext, path: string): Promise<WebPage> {
  return page(await request.get(path));
}

/**
 * Posts a form to `path` as a browser without scripts would: urlencoded, from the app's own origin, following the
 * redirect the server answers with.
 */
export async function submit(request: APIRequestContext, path: string, fields: FormFields, origin: string): Promise<WebPage> {
  const body = new URLSearchParams(fields as Record<string, string>).toString();
  const response = await request.post(path, {
    data: body,
    headers: { "content-type": "application/x-www-form-urlencoded", origin, "sec-fetch-site": "same-origin" },
  });
  return page(response);
}

/**
 * Follows a response's redirects one at a time, as a browser does (a GET to each Location), recording every address
 * it visits in `hops`; answers the first response that is no redirect.
 */
export async function followRedirects(request: APIRequestContext, first: APIResponse, hops: URL[] = []): Promise<APIResponse> {
  let response = first;
  hops.push(new URL(response.url()));
  for (let i = 0; i < 20 && response.status() >= 300 && response.status() < 400; i++) {
    const next = new URL(response.headers()["location"]!, response.url());
    hops.push(next);
    response = await request.get(next.href, { maxRedirects: 0 });
  }
  return response;
}

/**
 * Signs `user` in through the real flow without a browser, as one without JavaScript would: the app's "Continue with
 * Google" form on `from` (its hidden fields as drawn, or `redirectTo` forged in), the local OpenID provider's form
 * (standing in for Google), the code exchange, and back to the app. Answers the page it lands on, every address it
 * went through, and the app's callback address (with its code and state).
 */
export async function providerSignIn(
  request: APIRequestContext,
  user: { name: string; email: string },
  options: { app: string; from?: string; redirectTo?: string },
): Promise<{ page: WebPage; hops: URL[]; callback: URL | undefined }> {
  const hops: URL[] = [];
  const start = await page(await followRedirects(request, await request.get(new URL(options.from ?? "/", options.app).href, { maxRedirects: 0 }), hops));
  const form = start.$('form[action="/auth/google"]');
  if (!form.length) throw new Error(`providerSignIn: no "Continue with Google" form on ${start.url.href}: ${start.text().slice(0, 200)}`);
  const fields = new URLSearchParams();
  for (const input of form.find("input[name]").toArray()) fields.set(start.$(input).attr("name")!, start.$(input).attr("value") ?? "");
  if (options.redirectTo !== undefined) fields.set("redirectTo", options.redirectTo);
  const posted = await request.post(new URL("/auth/google", options.app).href, {
    data: fields.toString(),
    headers: { "content-type": "application/x-www-form-urlencoded", origin: options.app, "sec-fetch-site": "same-origin" },
    maxRedirects: 0,
  });
  const login = await page(await followRedirects(request, posted, hops));
  const action = login.$("form").attr("action");
  if (!action) throw new Error(`providerSignIn: no sign-in form at the provider (${login.url.href}): ${login.text().slice(0, 200)}`);
  const provider = login.url.origin;
  const signedIn = await request.post(new URL(action, login.url).href, {
    data: new URLSearchParams({ name: user.name, email: user.email }).toString(),
    headers: { "content-type": "application/x-www-form-urlencoded", origin: provider, "sec-fetch-site": "same-origin" },
    maxRedirects: 0,
  });
  const landed = await page(await followRedirects(request, signedIn, hops));
  const callback = hops.find((hop) => hop.origin === new URL(options.app).origin && hop.pathname === "/auth/google/callback" && hop.searchParams.has("code"));
  return { page: landed, hops, callback };
}

/** A form's fields as a browser sends them, and the address it posts them to. */
export interface FilledForm {
  action: string;
  fields: [string, string][];
}

/**
 * The form `selector` on `page` as a browser without JavaScript sends it: its address (its action, else the page's
 * own) and its successful controls as drawn — hidden and text inputs, checked boxes and radios, each select's chosen
 * option (or its first), textareas; no disabled control, no button — with `changes` made as a user would: a string
 * sets a field (a radio's choice; the one value of a box or input), a list sets the ticked values of boxes sharing a
 * name, null leaves the field out. `button` (its text) adds the pressed submit button's name and value.
 */
export function fillForm(page: WebPage, selector: string, changes: Record<string, string | string[] | null> = {}, button?: string): FilledForm {
  const $ = page.$;
  const form = $(selector).first();
  if (!form.length) throw new Error(`fillForm: no ${selector} on ${page.url.href}: ${page.text().slice(0, 200)}`);
  const fields: [string, string][] = [];
  const done = new Set<string>();
  for (const element of form.find("input[name], select[name], textarea[name]").toArray()) {
    const control = $(element);
    const name = control.attr("name")!;
    if (control.is("[disabled]")) continue;
    const tag = element.tagName.toLowerCase();
    const type = (control.attr("type") ?? "text").toLowerCase();
    if (tag === "input" && ["submit", "button", "reset", "image", "file"].includes(type)) continue;
    if (name in changes) {
      if (done.has(name)) continue;
      done.add(name);
      const change = changes[name];
      if (change === null || change === undefined) continue;
      for (const value of Array.isArray(change) ? change : [change]) fields.push([name, value]);
      continue;
    }
    if (tag === "input" && (type === "checkbox" || type === "radio")) {
      if (control.is("[checked]")) fields.push([name, control.attr("value") ?? "on"]);
    } else if (tag === "select") {
      const chosen = control.find("option[selected]").first();
      const option = chosen.length ? chosen : control.find("option").first();
      if (option.length) fields.push([name, option.attr("value") ?? collapse(option.text())]);
    } else if (tag === "textarea") {
      fields.push([name, control.text()]);
    } else {
      fields.push([name, control.attr("value") ?? ""]);
    }
  }
  for (const [name, change] of Object.entries(changes)) {
    if (done.has(name) || change === null) continue;
    for (const value of Array.isArray(change) ? change : [change]) fields.push([name, value]);
  }
  if (button !== undefined) {
    const pressed = form
      .find("button, input[type=submit]")
      .toArray()
      .find((element) => collapse($(element).is("input") ? ($(element).attr("value") ?? "") : $(element).text()) === button);
    if (!pressed) throw new Error(`fillForm: no "${button}" button in ${selector} on ${page.url.href}`);
    const name = $(pressed).attr("name");
    if (name) fields.push([name, $(pressed).attr("value") ?? ""]);
  }
  const action = new URL(form.attr("action") ?? page.url.pathname + page.url.search, page.url);
  return { action: action.pathname + action.search, fields };
}

/**
 * The accessible description of the control with this id, as a screen reader reads it: the text of the elements its
 * aria-describedby names, in order, whitespace collapsed (what Playwright's toHaveAccessibleDescription compares).
 */
export function accessibleDescription(page: WebPage, id: string): string {
  const ids = (page.$(`#${cssEscape(id)}`).attr("aria-describedby") ?? "").split(/\s+/).filter(Boolean);
  return collapse(ids.map((ref) => page.$(`#${cssEscape(ref)}`).text()).join(" "));
}
