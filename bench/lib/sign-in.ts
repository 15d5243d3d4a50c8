import { chromium } from "playwright-core";

export interface SignedIn {
  name: string;
  email: string;
  /** The Cookie header a browser sends to the app after signing in. */
  cookieHeader: string;
  cookieNames: string[];
}

const CHROMIUM = process.env.BENCH_CHROMIUM ?? "/usr/bin/chromium";
const ARGS = [
  "--headless",
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

/**
 * Signs in for real: the app's "Continue with Google" button, the local OpenID
 * provider's form, the callback and the code exchange by the backend. Returns
 * the cookies the browser then holds for the app.
 */
export async function signIn(appUrl: string, name: string, email: string): Promise<SignedIn> {
  const browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ARGS });
  try {
    const context = await browser.newContext();
    const page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await page.goto(`${appUrl}/`);
    await page.getByRole("button", { name: "Continue with Google" }).click();
    await page.waitForURL(/\/interaction\//);
    await page.getByLabel("Full name").fill(name);
    await page.getByLabel("E-mail").fill(email);
    await page.getByRole("button", { name: "Continue" }).click();
    await page.waitForURL((url) => url.pathname === "/connectors");
    const cookies = await context.cookies(appUrl);
    const names = cookies.map((c) => c.name);
    for (const needed of ["__tributary", "tributary_session"]) {
      if (!names.includes(needed)) throw new Error(`Signed in, but the browser holds no "${needed}" cookie for ${appUrl} (it has: ${names.join(", ") || "none"}).`);
    }
    return {
      name,
      email,
      cookieHeader: cookies.map((c) => `${c.name}=${c.value}`).join("; "),
      cookieNames: names,
    };
  } finally {
    await browser.close();
  }
}
