import { z } from "zod";
import { pageQuerySchema } from "./pagination.js";
import { SOURCE_MANIFESTS } from "./integrations/sources.js";
import { DESTINATION_MANIFESTS } from "./integrations/destinations.js";
import { TRANSFORM_TYPE_LABELS } from "./transforms.js";
import { CONNECTOR_HEALTH } from "./connectors.js";
import { sortLabel, type Choice, type ListChoices, type ListKind, type ListSort } from "./list-find.js";

export { listAddress, sortLabel, SORTS, type Choice, type ListChoices, type ListFind, type ListKind, type ListSort } from "./list-find.js";
export { CONNECTOR_HEALTH, type ConnectorHealth } from "./connectors.js";

/**
 * Search, filter and sort of the four lists (issue 27): ?q=&status=&type=&sort= beside ?page=. The same words
 * travel from the page's address to the backend's list call, so a list is shareable and works without JavaScript.
 * Every value a select offers is named here, with the words the page shows for it.
 */

/** A transform's newest run. */
export const TRANSFORM_LAST_RUN = [
  { value: "succeeded", label: "Succeeded" },
  { value: "running", label: "Running" },
  { value: "queued", label: "Queued" },
  { value: "failed", label: "Failed" },
  { value: "cancelled", label: "Cancelled" },
  { value: "never_run", label: "Never run" },
] as const satisfies readonly Choice[];

export const SOURCE_STATUS_CHOICES = [
  { value: "active", label: "Active" },
  { value: "error", label: "Error" },
] as const satisfies readonly Choice[];

const sourceTypes: Choice[] = SOURCE_MANIFESTS.map((m) => ({ value: m.name, label: m.label }));
const destinationTypes: Choice[] = DESTINATION_MANIFESTS.map((m) => ({ value: m.name, label: m.label }));
const transformTypes: Choice[] = Object.entries(TRANSFORM_TYPE_LABELS).map(([value, label]) => ({ value, label }));

/** What each list can be filtered and sorted by. */
export const LIST_FILTERS: Record<ListKind, { statuses: readonly Choice[]; types: readonly Choice[]; sorts: readonly ListSort[] }> = {
  sources: { statuses: SOURCE_STATUS_CHOICES, types: sourceTypes, sorts: ["newest", "oldest", "name", "name_desc"] },
  destinations: { statuses: [], types: destinationTypes, sorts: ["newest", "oldest", "name", "name_desc"] },
  connectors: { statuses: CONNECTOR_HEALTH, types: sourceTypes, sorts: ["newest", "oldest", "name", "name_desc", "last_sync"] },
  transforms: { statuses: TRANSFORM_LAST_RUN, types: transformTypes, sorts: ["newest", "oldest", "name", "name_desc", "last_sync"] },
};

/** A list's filter choices in words, for its page (the loader sends them: the browser never loads the registry). */
export const listChoices = (kind: ListKind): ListChoices => ({
  statuses: LIST_FILTERS[kind].statuses,
  types: LIST_FILTERS[kind].types,
  sorts: LIST_FILTERS[kind].sorts.map((sort) => ({ value: sort, label: sortLabel(sort, kind) })),
});

/** Empty means "any": a form sends every field, set or not. */
const blankToUndefined = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);

const oneOf = (choices: readonly Choice[], what: string) =>
  z.preprocess(
    blankToUndefined,
    z
      .string()
      .refine((v) => choices.some((c) => c.value === v), { message: `Choose a ${what} from the list.` })
      .optional(),
  );

/** The list call's query: the page, and the search, filters and sort this kind of list has (made once per kind). */
export function listQuerySchema(kind: ListKind) {
  let schema = schemas.get(kind);
  if (!schema) schemas.set(kind, (schema = buildListQuerySchema(kind)));
  return schema;
}

function buildListQuerySchema(kind: ListKind) {
  const filters = LIST_FILTERS[kind];
  return pageQuerySchema.extend({
    q: z.preprocess(blankToUndefined, z.string().trim().max(200, "Search for at most 200 characters.").optional()),
    status: oneOf(filters.statuses, "status"),
    type: oneOf(filters.types, "type"),
    sort: z.preprocess(
      blankToUndefined,
      z
        .enum(filters.sorts as [ListSort, ...ListSort[]], { errorMap: () => ({ message: "Choose an order from the list." }) })
        .default("newest"),
    ),
  });
}
const schemas = new Map<ListKind, ReturnType<typeof buildListQuerySchema>>();
export type ListQuery = z.infer<ReturnType<typeof buildListQuerySchema>>;

/** The query's words that narrow the list (search, status, type): with none, an empty list is a first visit. */
export const isFiltered = (query: Pick<ListQuery, "q" | "status" | "type">): boolean => !!(query.q || query.status || query.type);
