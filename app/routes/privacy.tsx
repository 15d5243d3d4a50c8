import type { MetaFunction } from "@remix-run/node";
import { LegalPage } from "~/components/legal-page";

export const meta: MetaFunction = () => [{ title: "Privacy Policy · Tributary" }];

export default function Privacy() {
  return (
    <LegalPage title="Privacy Policy">
      <p>To sign you in we receive your name and e-mail address from Google. We keep them to show who is signed in and to keep your records yours.</p>
      <p>Passwords, tokens and keys you give us to reach your sources and destinations are encrypted at rest and never shown back or written to logs.</p>
      <p>Data your connectors sync passes through Tributary on its way to your destinations; we do not sell or share it.</p>
    </LegalPage>
  );
}
