import { DEFAULT_SETUP_STEP_TITLES, type RequirementInput, type SetupStep } from "../../contract/transforms.js";
import { warehouseKindsInWords } from "../../contract/integrations/destination-words.js";
import { destinationPlugin } from "../integrations/destinations/registry.js";
import type { WarehouseTarget } from "../integrations/destinations/plugin.js";
import type { TemplateDefinition } from "./catalogue.js";

/* A template's setup steps for a warehouse: generic steps, with the warehouse plug-in's own texts for its grants. */

/** The warehouse a transform reads and writes: what the setup steps talk about. */
export type { WarehouseTarget };

export const RESULTS_PREFIX_INPUT: RequirementInput = {
  key: "results_prefix",
  label: "Result table prefix",
  type: "string",
  default: "tx",
  placeholder: "tx",
  description: "Result tables are named <prefix>_<first 8 characters of the transform id>_<table>. Letters, digits and _ only.",
  required: true,
};

/** The warehouse plug-in's own texts for the setup steps (none for a destination that is not a known warehouse). */
const setupOf = (target: WarehouseTarget | null) => (target ? destinationPlugin(target.integration_name)?.transformSetup : undefined);

/** What a template reads, in words: its own, else the transcripts. */
export const readsOf = (d: TemplateDefinition) => d.reads ?? { records: "transcripts", tables: "the meetings and transcript_utterances tables" };

function readStep(d: TemplateDefinition, target: WarehouseTarget | null, step: number, title: string): SetupStep {
  const base = { step, title, required: true, type: "destination_setup" as const, requirement_inputs: [] };
  const { records, tables } = readsOf(d);
  if (!target) {
    return { ...base, description: `Choose a connector whose destinations include a warehouse (${warehouseKindsInWords()}): the transform reads the ${records} it synced there.`, instructions: [] };
  }
  return {
    ...base,
    description: `The transform reads ${tables} that the connector synced into "${target.name}" (${setupOf(target)?.label ?? target.integration_name}).`,
    instructions: [`Make sure the connector has synced at least once: the preview shows how many ${records} the transform would read.`],
  };
}

function reviewStep(target: WarehouseTarget | null, step: number, title: string): SetupStep {
  const base = { step, title, required: true, type: "permissions_review" as const, permission: "dataset_query_access", requirement_inputs: [] };
  const setup = setupOf(target);
  if (setup) return { ...base, ...setup.readGrants(target!) };
  return { ...base, description: "Review the read access the transform needs on the destination warehouse once a connector is chosen.", instructions: [] };
}

function writeStep(target: WarehouseTarget | null, step: number): SetupStep {
  const base = { step, title: "Grant write access for results", required: true, type: "permission_setup" as const, permission: "permission_setup" };
  const setup = setupOf(target);
  if (!setup) return { ...base, description: "The result tables are written into the destination warehouse.", instructions: [], requirement_inputs: [] };
  const location = setup.resultsLocation?.(target!) ?? null;
  return { ...base, ...setup.writeGrants(target!), requirement_inputs: location ? [location] : [] };
}

function deployStep(step: number): SetupStep {
  return {
    step,
    title: "Deploy",
    description: "Name the result tables. Creating the transform queues a first run at once, then it runs on its schedule.",
    required: true,
    type: "deployment",
    permission: "deployment",
    requirement_inputs: [RESULTS_PREFIX_INPUT],
    instructions: [],
  };
}

/** The setup steps of a template for a warehouse (or, with none, in general); §4's two defaults when it has none of its own. */
export function setupStepsFor(d: TemplateDefinition, target: WarehouseTarget | null): SetupStep[] {
  if (!d.customSetup) return [readStep(d, target, 1, DEFAULT_SETUP_STEP_TITLES[0]), reviewStep(target, 2, DEFAULT_SETUP_STEP_TITLES[1])];
  return [readStep(d, target, 1, `Connect the ${readsOf(d).records}`), reviewStep(target, 2, "Review read permissions"), writeStep(target, 3), deployStep(4)];
}

/** All requirement inputs of a template's steps for a warehouse (what create and preview check). */
export function requirementInputsFor(d: TemplateDefinition, target: WarehouseTarget | null): RequirementInput[] {
  return setupStepsFor(d, target).flatMap((s) => s.requirement_inputs);
}
