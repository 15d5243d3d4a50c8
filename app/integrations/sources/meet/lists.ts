import type { GoogleGroup } from "@contract/integrations/setup-calls";

/** What Google Meet's setup step loads: the Workspace's groups, when the scope is one group. */
export interface MeetLists {
  groups?: GoogleGroup[];
}
