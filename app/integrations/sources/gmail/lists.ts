import type { GoogleGroup } from "@contract/integrations/setup-calls";

/** What Gmail's setup step loads: the Workspace's groups, when the scope is one group. */
export interface GmailLists {
  groups?: GoogleGroup[];
}
