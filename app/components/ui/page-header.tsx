import { Link } from "@remix-run/react";

export function PageHeader(props: { title: string; description?: string; action?: { to: string; label: string } }) {
  return (
    <div className="mb-6 flex flex-col gap-4 sm:flex-row sm:items-end sm:justify-between">
      <div>
        <h1 className="text-2xl font-bold tracking-tight text-slate-900">{props.title}</h1>
        {props.description ? <p className="mt-1 text-sm text-slate-600">{props.description}</p> : null}
      </div>
      {props.action ? (
        <Link to={props.action.to} className="btn-primary self-start sm:self-auto">
          <span aria-hidden="true" className="text-lg leading-none">+</span>
          {props.action.label}
        </Link>
      ) : null}
    </div>
  );
}
