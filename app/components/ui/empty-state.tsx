import { Link } from "@remix-run/react";

/** An empty list: what is missing and a card to create the first one. */
export function EmptyState(props: { title: string; body: string; action: { to: string; label: string } }) {
  return (
    <div className="card flex flex-col items-center px-6 py-16 text-center">
      <div className="flex h-12 w-12 items-center justify-center rounded-full bg-brand-50 text-brand-700">
        <svg viewBox="0 0 24 24" className="h-6 w-6" fill="none" stroke="currentColor" strokeWidth="1.8" aria-hidden="true">
          <path strokeLinecap="round" d="M12 5v14M5 12h14" />
        </svg>
      </div>
      <h2 className="mt-4 text-lg font-semibold text-slate-900">{props.title}</h2>
      <p className="mt-1 max-w-sm text-sm text-slate-600">{props.body}</p>
      <Link to={props.action.to} className="btn-primary mt-6">
        {props.action.label}
      </Link>
    </div>
  );
}
