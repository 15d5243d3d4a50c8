import type { Actor } from "../services/actor.js";
import type { Services } from "../services/deps.js";

/** The public API's request variables: the actor its bearer key stands for (backend/api/middleware.ts) and the deps. */
export type PublicApiEnv = { Variables: { actor: Actor; services: Services } };
