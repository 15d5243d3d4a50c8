import { CopyButton } from "~/components/ui/copy-button";
import { Field, SettingFields, Steps } from "~/components/destination-form/fields";
import type { DestinationSetup, SetupProps } from "./types";

/**
 * Cloud Storage and BigQuery: besides the manifest's fields (project, bucket or dataset), the user grants the
 * platform's service account access, following the steps, and the test is called Authenticate.
 */
function GoogleSetup(props: SetupProps) {
  const { manifest, serviceAccount } = props;
  return (
    <section className="card space-y-5 p-6" aria-labelledby="google-heading">
      <h2 id="google-heading" className="text-base font-semibold text-slate-900">
        {manifest.label}
      </h2>
      <SettingFields fields={manifest.fields} defaults={props.defaults} errors={props.errors} locked={props.locked} secretFields={manifest.secretFields} />
      <input type="hidden" name="permission_type" value={props.defaults.permission_type ?? "dataset_write"} />
      {serviceAccount ? (
        <>
          <div>
            <label htmlFor="destination-service_account_email" className="block text-sm font-medium text-slate-800">
              Service account e-mail
            </label>
            <div className="mt-1 flex gap-2">
              <input
                id="destination-service_account_email"
                name="service_account_email"
                readOnly
                value={serviceAccount.email}
                className="block w-full min-w-0 rounded-lg border border-slate-300 bg-slate-50 px-3 py-2 font-mono text-sm text-slate-800"
              />
              <CopyButton text={() => serviceAccount.email} />
            </div>
            <p className="mt-1 text-xs text-slate-600">Grant this account access as the steps below describe.</p>
          </div>
          {props.instructions ? <Steps instructions={props.instructions} /> : null}
          <Field name="credential_id" label="Credential ID" readOnly defaultValue={serviceAccount.credentialId} />
        </>
      ) : null}
    </section>
  );
}

export const googleSetup: DestinationSetup = {
  Component: GoogleSetup,
  serviceAccount: true,
  stepDefaults: { permission_type: "dataset_write" },
  editable: true,
  testLabel: { create: "Authenticate", edit: "Reauthenticate" },
  changeHint: "Reauthenticate after changing the project, bucket or dataset.",
  extraFields: ["service_account_email", "credential_id", "permission_type"],
  showsCredential: true,
};
