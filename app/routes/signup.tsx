import { providersInWords } from "@contract/integrations/sources";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { SignInCard } from "~/components/sign-in-card";
import { destinationKindsInWords } from "@contract/integrations/destination-words";
import { env } from "~/services/env.server";

export const meta: MetaFunction = () => [{ title: "Create your account · Tributary" }];

export async function loader(_: LoaderFunctionArgs) {
  return { localSignIn: env().localSignIn, destinationKinds: destinationKindsInWords(), providers: providersInWords("and") };
}

/** Accounts are Google accounts: signing up is the first sign-in. */
export default function SignUp() {
  const data = useLoaderData<typeof loader>();
  return (
    <SignInCard
      heading="Create your account"
      lead="Use your Google account: your Tributary account is created the first time you continue."
      redirectTo={null}
      error={null}
      localSignIn={data.localSignIn}
      destinationKinds={data.destinationKinds}
      providers={data.providers}
    />
  );
}
