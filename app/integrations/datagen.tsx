import { setupClasses, type SourceSetup } from "./source-setup";

const { label, input } = setupClasses;

export const datagenSetup: SourceSetup = {
  fields: ["company", "format"],
  defaults: { company: "", format: "zoom" },
  metadata: (setup) => ({ company: setup.company ?? "", format: setup.format ?? "" }),
  complete: (values) => values.format === "zoom" || values.format === "gong",
  Setup: ({ setup }) => (
    <>
      <div>
        <label htmlFor="company" className={label}>
          Company name
        </label>
        <input id="company" name="company" type="text" defaultValue={setup.company ?? ""} className={input} aria-describedby="company-hint" />
        <p id="company-hint" className="mt-1 text-xs text-slate-600">
          Up to 100 characters; used in the generated meetings.
        </p>
      </div>
      <div>
        <label htmlFor="format" className={label}>
          Data style
        </label>
        <select id="format" name="format" defaultValue={setup.format ?? "zoom"} className={input}>
          <option value="zoom">zoom</option>
          <option value="gong">gong</option>
        </select>
      </div>
    </>
  ),
};
