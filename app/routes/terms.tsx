import type { MetaFunction } from "@remix-run/node";
import { LegalPage } from "~/components/legal-page";

export const meta: MetaFunction = () => [{ title: "Terms of Use · Tributary" }];

export default function Terms() {
  return (
    <LegalPage title="Terms of Use">
      <p>Tributary copies data from the accounts you connect to the destinations you choose, on the schedule you set, and runs the analyses you create on it.</p>
      <p>You may connect only accounts and destinations you are authorised to use, and you remain responsible for the data you move and for how you use the results.</p>
      <p>You can delete your sources, destinations, connectors and transforms at any time; deleting them stops future syncs and runs.</p>
    </LegalPage>
  );
}
