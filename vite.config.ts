import { vitePlugin as remix } from "@remix-run/dev";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig, type Plugin } from "vite";
import { compression, defineAlgorithm } from "vite-plugin-compression2";
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
    // terser packs the framework's client bundle ~3% tighter than esbuild: the first-load JS budget is 90 KB gz.
    minify: "terser",
    terserOptions: { compress: { passes: 2 }, format: { comments: false } },
    rollupOptions: { output: { manualChunks: sharedChunk } },
  },
  plugins: [
    tailwindcss(),
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
