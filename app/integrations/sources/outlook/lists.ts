import type { OutlookGroup } from "@contract/integrations/outlook";

/** What Outlook's setup step loads: the organization's mail-enabled groups, when the scope is one group. */
export interface OutlookLists {
  groups?: OutlookGroup[];
}
