import type { ZoomGroup } from "@contract/integrations/zoom";

/** What Zoom's setup step loads: the account's groups, when the scope is one group. */
export interface ZoomLists {
  groups?: ZoomGroup[];
}
