import { SOURCE_MESSAGES } from "@contract/sources";
import type { SourceSetupServer } from "../../source-setup.server";

/** The data generator: authenticated at once, with nothing to load or verify. */
const datagenServer: SourceSetupServer = {
  authFlow: () => ({ redirect: false, body: {}, failure: SOURCE_MESSAGES.datagenAuthFailed }),
};

export default datagenServer;
