import { envConfig } from "../kit/config.js";

export type ZoomConfig = ReturnType<typeof zoomConfig>;

export const zoomConfig = (env: NodeJS.ProcessEnv = process.env) =>
  envConfig("Zoom", { clientId: "ZOOM_CLIENT_ID", clientSecret: "ZOOM_CLIENT_SECRET" }, {
    oauthBaseUrl: ["ZOOM_OAUTH_BASE_URL", "https://zoom.us", "base"],
    apiBaseUrl: ["ZOOM_API_BASE_URL", "https://api.zoom.us/v2", "base"],
  }, env);
