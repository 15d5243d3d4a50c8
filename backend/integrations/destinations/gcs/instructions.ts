import type { IntegrationInstructions, InstructionStep } from "../../../../contract/destinations.js";
import { grantSteps, type GoogleGrant } from "../kit/google-access.js";

/** Numbered setup steps for granting the platform's service account access to one bucket. */
export function gcsInstructions(input: GoogleGrant & { bucketName?: string }): IntegrationInstructions {
  const project = input.projectId || "<PROJECT_ID>";
  const member = `serviceAccount:${input.email}`;
  const bucket = input.bucketName || "<BUCKET_NAME>";
  const title = "Give Tributary access to your Cloud Storage bucket";
  const description = `Tributary writes to the bucket as the service account ${input.email}. Grant it access to one bucket; nothing else in your project is shared.`;
  const steps: InstructionStep[] = [
      { title: "Open the bucket", description: `In the Google Cloud console, open Cloud Storage › Buckets in project ${project} and select ${bucket} (create it first if it does not exist).` },
      { title: "Add the service account", description: `On the bucket's Permissions tab, click Grant access and enter ${input.email} as a new principal.` },
      {
        title: "Choose the role",
        description: `Give it the role Storage Object Admin (roles/storage.objectAdmin): it creates, reads and deletes objects in this bucket only. Or run: gcloud storage buckets add-iam-policy-binding gs://${bucket} --member=${member} --role=roles/storage.objectAdmin`,
      },
      { title: "Authenticate", description: "Save, come back here and click Authenticate: Tributary writes, reads and deletes a small test object." },
    ];
  return grantSteps(title, description, steps, input.email);
}
