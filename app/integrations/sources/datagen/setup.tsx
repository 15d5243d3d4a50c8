import { DATAGEN_MAX_MEETINGS_PER_DAY } from "@contract/integrations/datagen";
import { dataStyleLabel } from "@contract/labels";
import { Field } from "~/components/ui/field";
import { controlProps, FIELD_PREFIX, setupClasses, type SourceSetup } from "../../source-setup";

const datagenSetup: SourceSetup = {
  fields: ["company", "format", "meetings_per_day"],
  defaults: { company: "", format: "zoom", meetings_per_day: "" },
  // The volume only when given (empty: the generator's default); checked by the contract's schema, which reads text.
  metadata: (setup) => ({ company: setup.company ?? "", format: setup.format ?? "", ...(setup.meetings_per_day?.trim() ? { meetings_per_day: setup.meetings_per_day.trim() } : {}) }),
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
      <Field
        name="meetings_per_day"
        label="Meetings per day (optional)"
        idPrefix={FIELD_PREFIX}
        defaultValue={setup.meetings_per_day ?? ""}
        inputMode="numeric"
        hint={`1 to ${DATAGEN_MAX_MEETINGS_PER_DAY.toLocaleString("en-US")}; empty makes about 6. More meetings make a longer sync.`}
        error={errors.meetings_per_day?.[0]}
      />
    </>
  ),
};

export default datagenSetup;
