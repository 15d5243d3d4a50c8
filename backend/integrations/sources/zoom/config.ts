import { oauthClientConfig } from "../kit/config.js";

/** Zoom's OAuth app (ZOOM_CLIENT_ID, ZOOM_CLIENT_SECRET) and endpoints. */
export const zoomConfig = oauthClientConfig("Zoom", "ZOOM", {
  oauthBaseUrl: ["ZOOM_OAUTH_BASE_URL", "https://zoom.us", "base"],
  apiBaseUrl: ["ZOOM_API_BASE_URL", "https://api.zoom.us/v2", "base"],
});

export type ZoomConfig = ReturnType<typeof zoomConfig>;
