import { gzipSync } from "node:zlib";

export interface JsFile {
  url: string;
  raw: number;
  gzip: number;
  /** How the browser finds it: referenced by the HTML, or only by another JS file's static import. */
  via: "html" | "import";
}

export interface PageJs {
  path: string;
  status: number;
  files: JsFile[];
  raw: number;
  gzip: number;
  /** Inline <script> bodies of the HTML (Remix's route manifest and loader data): part of the document, not counted above. */
  inline: { raw: number; gzip: number };
}

const attr = (tag: string, name: string) => new RegExp(`\\b${name}\\s*=\\s*(?:"([^"]*)"|'([^']*)'|([^\\s>]+))`, "i").exec(tag)?.slice(1).find((v) => v !== undefined);

/** JS URLs the HTML makes the browser load: <script src>, <link rel=modulepreload>, and imports inside inline module scripts. */
export function jsReferencesInHtml(html: string): string[] {
  const found: string[] = [];
  for (const [tag] of html.matchAll(/<script\b[^>]*>/gi)) {
    const src = attr(tag, "src");
    if (src) found.push(src);
  }
  for (const [tag] of html.matchAll(/<link\b[^>]*>/gi)) {
    const rel = attr(tag, "rel")?.toLowerCase().split(/\s+/) ?? [];
    const href = attr(tag, "href");
    if (href && (rel.includes("modulepreload") || (rel.includes("preload") && attr(tag, "as") === "script"))) found.push(href);
  }
  for (const [, body] of html.matchAll(/<script\b[^>]*>([\s\S]*?)<\/script>/gi)) {
    found.push(...importsInJs(body!));
  }
  return found.filter((u) => /\.m?js(\?|#|$)/.test(u));
}

/** Module specifiers of `import … from "x"`, `import "x"`, `export … from "x"` and `import("x")` (string literals only). */
export function importsInJs(code: string, { dynamic = true } = {}): string[] {
  const specs: string[] = [];
  for (const m of code.matchAll(/\b(?:import|export)\s*(?:[\w*${}\s,]+?\s*from\s*)?(["'])([^"'\n]+)\1/g)) specs.push(m[2]!);
  if (dynamic) for (const m of code.matchAll(/\bimport\s*\(\s*(["'])([^"'\n]+)\1\s*\)/g)) specs.push(m[2]!);
  return specs;
}

/**
 * The JavaScript a first visit to `path` downloads: everything the HTML names,
 * plus (closing the set) every module those statically import. Each distinct
 * file is gzipped with zlib's default level and the sizes summed. Lazy
 * `import()` inside the bundles is not followed: it is not first-load.
 */
export async function firstLoadJs(appUrl: string, path: string, headers: Record<string, string>): Promise<PageJs> {
  const pageUrl = new URL(path, appUrl);
  const response = await fetch(pageUrl, { headers, redirect: "manual" });
  const html = await response.text();
  if (response.status !== 200) return { path, status: response.status, files: [], raw: 0, gzip: 0, inline: { raw: 0, gzip: 0 } };
  const inlineCode = Buffer.from([...html.matchAll(/<script\b(?![^>]*\bsrc=)[^>]*>([\s\S]*?)<\/script>/gi)].map((m) => m[1]).join("\n"));

  const files = new Map<string, JsFile>();
  const queue: { url: string; via: JsFile["via"] }[] = jsReferencesInHtml(html).map((u) => ({ url: new URL(u, pageUrl).href, via: "html" }));
  while (queue.length) {
    const { url, via } = queue.shift()!;
    if (files.has(url)) continue;
    if (new URL(url).origin !== pageUrl.origin) continue; // third-party scripts are not ours to count (there are none today)
    const res = await fetch(url, { headers: { "accept-encoding": "identity" } });
    if (!res.ok) throw new Error(`${path}: ${url} answered ${res.status}`);
    const body = Buffer.from(await res.arrayBuffer());
    files.set(url, { url, raw: body.length, gzip: gzipSync(body).length, via });
    for (const spec of importsInJs(body.toString("utf8"), { dynamic: false })) {
      if (spec.startsWith(".") || spec.startsWith("/")) queue.push({ url: new URL(spec, url).href, via: "import" });
    }
  }
  const list = [...files.values()].sort((a, b) => b.gzip - a.gzip);
  return {
    path,
    status: response.status,
    files: list,
    raw: list.reduce((n, f) => n + f.raw, 0),
    gzip: list.reduce((n, f) => n + f.gzip, 0),
    inline: { raw: inlineCode.length, gzip: gzipSync(inlineCode).length },
  };
}
