import { dataStyleLabel } from "@contract/labels";
import { Field } from "~/components/ui/field";
import { controlProps, FIELD_PREFIX, setupClasses, type SourceSetup } from "./source-setup";

export const datagenSetup: SourceSetup = {
  fields: ["company", "format"],
  defaults: { company: "", format: "zoom" },
  metadata: (setup) => ({ company: setup.company ?? "", format: setup.format ?? "" }),
  complete: (values) => values.format === "zoom" || values.format === "gong",
  Setup: ({ setup, errors }) => (
    <>
      <Field
        name="company"
        label="Company name"
        idPrefix={FIELD_PREFIX}
        defaultValue={setup.company ?? ""}
        hint="Up to 100 characters; used in the generated meetings."
        error={errors.company?.[0]}
      />
      <Field name="format" label="Data style" idPrefix={FIELD_PREFIX} error={errors.format?.[0]}>
        <select {...controlProps("format", errors.format?.[0])} defaultValue={setup.format ?? "zoom"} className={setupClasses.input}>
          <option value="zoom">{dataStyleLabel("zoom")}</option>
          <option value="gong">{dataStyleLabel("gong")}</option>
        </select>
      </Field>
    </>
  ),
};
