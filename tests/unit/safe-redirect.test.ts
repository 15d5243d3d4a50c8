import { describe, expect, it } from "vitest";
import { safeRedirect } from "~/services/session.server";

const APP = "http://localhost:3000";
const FALLBACK = "/connectors";

/** How a browser resolves a Location header on a page of the app: the redirect must stay on the app's origin. */
function resolvedOrigin(location: string): string {
  return new URL(location, `${APP}/`).origin;
}

/** Targets that must never leave the site, written as a user or an attacker would put them in `redirectTo`. */
const HOSTILE = [
  "//evil.example",
  "///evil.example",
  "/./evil.example/../..//evil.example",
  "/.//evil.example",
  "/./\\evil.example",
  "/%2e//evil.example",
  "/%2E//evil.example",
  "/%2e%2e//evil.example",
  "/a/..//evil.example",
  "/a/%2e%2e//evil.example",
  "/a/b/../..//evil.example",
  "/\\evil.example",
  "\\\\evil.example",
  "\\/evil.example",
  "/\\/evil.example",
  "/\t/evil.example",
  "/\n/evil.example",
  "/\r\n/evil.example",
  "/ //evil.example",
  "/\u0000//evil.example",
  "https://evil.example/connectors",
  "http://localhost:3000.evil.example/",
  "https:evil.example",
  "http:/\\evil.example",
  "javascript:alert(1)",
  "JaVaScRiPt:alert(1)",
  " javascript:alert(1)",
  "data:text/html,<script>alert(1)</script>",
  "evil.example",
  "@evil.example",
  "",
];

describe("safeRedirect", () => {
  it.each(HOSTILE)("keeps %j on the site", (target) => {
    const result = safeRedirect(target, FALLBACK, APP);
    expect(resolvedOrigin(result)).toBe(APP);
    expect(result).toMatch(/^\/(?![/\\])/);
  });

  it.each(HOSTILE)("keeps the percent-encoded form of %j on the site", (target) => {
    // Decoded once (as URLSearchParams does), the encoded form is the raw form; encoded twice, it arrives encoded.
    for (const encoded of [encodeURIComponent(target), `/${encodeURIComponent(target)}`, target.replace(/\//g, "%2F"), target.replace(/\\/g, "%5C")]) {
      const result = safeRedirect(encoded, FALLBACK, APP);
      expect(resolvedOrigin(result), `${JSON.stringify(encoded)} gave ${JSON.stringify(result)}`).toBe(APP);
      expect(result).toMatch(/^\/(?![/\\])/);
    }
  });

  it("refuses the variants that normalise to another host, instead of returning the normalised path", () => {
    for (const target of ["/.//evil.example", "/./\\evil.example", "/%2e//evil.example", "/a/..//evil.example", "/\t/evil.example"]) {
      expect(safeRedirect(target, FALLBACK, APP)).toBe(FALLBACK);
    }
  });

  it("keeps a path on the site, with its query and fragment", () => {
    expect(safeRedirect("/connectors/add", FALLBACK, APP)).toBe("/connectors/add");
    expect(safeRedirect("/sources?page=2&q=a%2Fb#top", FALLBACK, APP)).toBe("/sources?page=2&q=a%2Fb#top");
    expect(safeRedirect("/transforms/details/3?next=//evil.example", FALLBACK, APP)).toBe("/transforms/details/3?next=//evil.example");
    expect(safeRedirect("/a/../destinations", FALLBACK, APP)).toBe("/destinations");
    // Encoded slashes stay encoded: one path segment on this site.
    expect(safeRedirect("/%2F%2Fevil.example", FALLBACK, APP)).toBe("/%2F%2Fevil.example");
  });

  it("gives the fallback for anything that is not text", () => {
    expect(safeRedirect(null, FALLBACK, APP)).toBe(FALLBACK);
    expect(safeRedirect(undefined, FALLBACK, APP)).toBe(FALLBACK);
    expect(safeRedirect(new File(["/x"], "x.txt"), FALLBACK, APP)).toBe(FALLBACK);
    expect(safeRedirect("//evil.example", "", APP)).toBe("");
  });

  it("parses against APP_URL's origin (an https app on a path prefix too)", () => {
    expect(safeRedirect("/connectors", FALLBACK, "https://tributary.example.com/base/")).toBe("/connectors");
    expect(safeRedirect("//tributary.example.com/connectors", FALLBACK, "https://tributary.example.com")).toBe(FALLBACK);
  });
});
