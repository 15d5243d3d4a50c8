import { Link } from "@remix-run/react";
import { Logo } from "./logo";

export function LegalPage({ title, children }: { title: string; children: React.ReactNode }) {
  return (
    <div className="min-h-full bg-white">
      <header className="border-b border-slate-200 px-6 py-4">
        <Link to="/" aria-label="Tributary sign-in">
          <Logo className="h-8" />
        </Link>
      </header>
      <main className="mx-auto max-w-2xl px-6 py-12">
        <h1 className="text-3xl font-bold tracking-tight">{title}</h1>
        <div className="mt-6 space-y-4 leading-relaxed text-slate-700">{children}</div>
        <Link to="/" className="link mt-10 inline-block">
          Back to sign-in
        </Link>
      </main>
    </div>
  );
}
