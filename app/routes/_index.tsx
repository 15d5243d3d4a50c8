import { providersInWords } from "@contract/integrations/sources";
import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { redirect } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { SignInCard } from "~/components/sign-in-card";
import { destinationKindsInWords } from "@contract/integrations/destination-words";
import { env } from "~/services/env.server";
import { backendSessionValid, getSession, safeRedirect, sessionStorage } from "~/services/session.server";

export const meta: MetaFunction = () => [{ title: "Sign in · Tributary" }];

export async function loader({ request }: LoaderFunctionArgs) {
  const session = await getSession(request);
  const url = new URL(request.url);
  const redirectParam = url.searchParams.get("redirectTo");
  const redirectTo = redirectParam ? safeRedirect(redirectParam, "") || null : null;
  if (session.get("user_info")) {
    if (await backendSessionValid(request)) throw redirect(redirectTo ?? "/connectors");
    session.unset("user_info");
  }
  const error = session.get("authError") ?? null;
  return Response.json(
    { redirectTo, error, localSignIn: env().localSignIn, destinationKinds: destinationKindsInWords(), providers: providersInWords("and") },
    { headers: { "set-cookie": await sessionStorage().commitSession(session) } },
  );
}

export default function SignIn() {
  const data = useLoaderData<typeof loader>();
  return (
    <SignInCard
      heading="Welcome"
      lead="Sign in to manage your sources, destinations, connectors and transforms."
      redirectTo={data.redirectTo}
      error={data.error}
      localSignIn={data.localSignIn}
      destinationKinds={data.destinationKinds}
      providers={data.providers}
    />
  );
}
