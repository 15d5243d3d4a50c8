import { sqlWithPassword } from "@contract/destinations";
import type { SetupProps } from "~/integrations";
import { CopyButton } from "~/components/ui/copy-button";
import { SettingFields } from "./fields";

/**
 * The sub-form of a destination whose manifest's fields are enough (Snowflake, PostgreSQL): its fields and,
 * when it needs a connection test, the button that generates the setup statements to run first, shown with a
 * copy button that puts the typed password in.
 */
export function GenericSetup(props: SetupProps & { busy: boolean; secret: () => string }) {
  const { manifest, instructions } = props;
  const sql = instructions?.sql ?? null;
  return (
    <section className="card space-y-5 p-6" aria-labelledby="settings-heading">
      <h2 id="settings-heading" className="text-base font-semibold text-slate-900">
        {manifest.label}
      </h2>
      <div className={manifest.fields.length > 2 ? "grid gap-5 sm:grid-cols-2" : "space-y-5"}>
        <SettingFields fields={manifest.fields} defaults={props.defaults} errors={props.errors} locked={props.locked} secretFields={manifest.secretFields} />
      </div>
      {props.locked || !manifest.needsConnectionTest ? null : (
        <div className="flex flex-wrap gap-3">
          <button type="submit" name="intent" value="instructions" formNoValidate className="btn-secondary" disabled={props.busy}>
            {props.busy ? "Generating..." : "Generate Instructions"}
          </button>
        </div>
      )}
      {instructions && sql ? (
        <div className="rounded-lg border border-slate-200 bg-slate-50 p-4">
          <div className="flex items-start justify-between gap-3">
            <div>
              <h3 className="text-sm font-semibold text-slate-900">{instructions.title}</h3>
              <p className="mt-1 text-sm text-slate-600">{instructions.description}</p>
            </div>
            <CopyButton label="Copy SQL" text={() => sqlWithPassword(sql, props.secret())} />
          </div>
          <pre tabIndex={0} className="mt-3 max-h-96 overflow-auto rounded-md bg-slate-900 p-3 text-xs leading-relaxed text-slate-100" aria-label="Setup SQL">
            <code>{sql}</code>
          </pre>
        </div>
      ) : null}
    </section>
  );
}
