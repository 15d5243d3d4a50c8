import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";

export const meta: MetaFunction = () => [{ title: "Page not found · Tributary" }];

export function loader() {
  throw new Response("Not found", { status: 404 });
}

export function ErrorBoundary() {
  return (
    <div className="mx-auto max-w-xl py-16 text-center">
      <p className="text-base font-semibold text-brand-700">404</p>
      <h1 className="mt-2 text-3xl font-bold tracking-tight">Page not found</h1>
      <p className="mt-4 text-slate-600">There is nothing at this address. It may have been moved or deleted.</p>
      <Link to="/connectors" className="btn-primary mt-8">
        Go to connectors
      </Link>
    </div>
  );
}

export default function NotFound() {
  return null;
}
