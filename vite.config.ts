import { vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";
import { compression, defineAlgorithm } from "vite-plugin-compression2";
import { minify as terser } from "terser";
import { fileURLToPath } from "node:url";
import { constants as zlibConstants } from "node:zlib";

declare module "@remix-run/node" {
  interface Future {
    v3_singleFetch: true;
  }
}

export default defineConfig({
  resolve: {
    alias: {
      "~": fileURLToPath(new URL("./app", import.meta.url)),
      "@contract": fileURLToPath(new URL("./contract", import.meta.url)),
    },
  },
  build: {
    target: "es2022",
    // esbuild minifies every chunk; what a page loads first is minified again by terser (firstLoadTerser).
    minify: "esbuild",
    rollupOptions: { output: { manualChunks: sharedChunk } },
  },
  plugins: [
    tailwindcss(),
    firstLoadTerser(),
    precompressedAssets(),
    remix({
      // TRIBUTARY_BUILD_DIR lets parallel test runs build side by side; scripts/serve-app.ts reads the same.
      buildDirectory: process.env.TRIBUTARY_BUILD_DIR || "build",
      future: {
        v3_fetcherPersist: true,
        v3_relativeSplatPath: true,
        v3_throwAbortReason: true,
        v3_singleFetch: true,
        v3_lazyRouteDiscovery: true,
      },
    }),
  ],
});

/**
 * The components every list page draws (its table, filters, paging, badges, dates, the live refresh) go into one chunk
 * with the framework they need, instead of a dozen small ones: one file compresses tighter than many, which keeps the
 * list pages' first-load JS under its 90 KB budget (bench/RESULTS.md has the figures, and what it adds to other pages).
 */
const SHARED = /\/app\/components\/(ui\/(list-filters|field|status-badge|error-block|empty-state|data-table|pagination|page-header)|logo|run-timing|date-time|refresh-without-script)\.tsx?$/;
function sharedChunk(id: string): string | undefined {
  return SHARED.test(id) ? "shared" : undefined;
}

/**
 * terser packs the framework and the pages' own code about 3% tighter than esbuild, which the list pages' 90 KB
 * first-load budget needs; but on the whole browser build it took about 100 of the build's 155 s, most of it on the
 * diagram library's chunks, which load only on a transform's template page. So esbuild minifies every chunk (vite's
 * default), and terser minifies again, once they are written, the chunks that a page loads before it hydrates: the
 * entries (the client entry and each route module) and the chunks they import statically.
 */
function firstLoadTerser(): Plugin {
  return {
    name: "tributary:first-load-terser",
    apply: (_config, env) => env.command === "build" && !env.isSsrBuild,
    async generateBundle(_options, bundle) {
      const firstLoad = new Set<string>();
      const visit = (fileName: string) => {
        const chunk = bundle[fileName];
        if (firstLoad.has(fileName) || chunk?.type !== "chunk") return;
        firstLoad.add(fileName);
        for (const imported of chunk.imports) visit(imported);
      };
      for (const output of Object.values(bundle)) if (output.type === "chunk" && output.isEntry) visit(output.fileName);
      for (const fileName of firstLoad) {
        const chunk = bundle[fileName]!;
        if (chunk.type !== "chunk") continue;
        const minified = await terser(chunk.code, { module: true, compress: { passes: 2 }, format: { comments: false } });
        if (minified.code) chunk.code = minified.code;
      }
    },
  };
}

/**
 * The browser build's scripts and stylesheets, compressed once at build time at the highest levels (brotli 11, gzip 9)
 * and served as they are by scripts/serve-app.ts (express-static-gzip), instead of compressed for every request.
 */
function precompressedAssets(): Plugin {
  return {
    ...compression({
      include: [/\.(js|css|svg|json)$/],
      threshold: 1024,
      algorithms: [defineAlgorithm("brotliCompress", { params: { [zlibConstants.BROTLI_PARAM_QUALITY]: 11 } }), defineAlgorithm("gzip", { level: 9 })],
      logLevel: "silent",
    }),
    // The server build is never sent to a browser.
    apply: (_config, env) => env.command === "build" && !env.isSsrBuild,
  };
}
