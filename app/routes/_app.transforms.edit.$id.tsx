import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { TRANSFORM_MESSAGES as M } from "@contract/transforms";
import { ErrorBlock } from "~/components/ui/error-block";
import { BackLink } from "~/components/ui/back-link";
import { isRecordId, pageData } from "~/services/records.server";
import { requireUser } from "~/services/session.server";
import { loadTransform, loadTransformConfig } from "~/services/transforms.server";

export const meta: MetaFunction = () => [{ title: "Update Transform · Tributary" }];

/**
 * Spec §2 "Edit screens": legacy editing is deprecated; the page says so and
 * leads to the template flow. A transform whose type no template knows is
 * "Invalid Transform type".
 */
export async function loader({ request, params }: LoaderFunctionArgs) {
  await requireUser(request);
  const [transform, config] = await Promise.all([
    isRecordId(params.id) ? loadTransform(request, params.id) : ({ ok: false, status: 404 } as const),
    loadTransformConfig(request),
  ]);
  type Page = { error: string | null; transform: { id: string; name: string; transform_type: string } | null; invalidType: boolean };
  if (!transform.ok) return pageData<Page>({ error: transform.status === 404 ? M.notFound : M.loadFailed, transform: null, invalidType: false }, transform.status === 404);
  if (!config.ok) return pageData<Page>({ error: M.loadTransformTypesFailed, transform: null, invalidType: false }, false);
  const t = transform.data;
  const invalidType = !config.data.transform_types.some((type) => type.value === t.transform_type);
  return pageData<Page>({ error: null, transform: { id: t.id, name: t.name, transform_type: t.transform_type }, invalidType }, false);
}

export default function EditTransform() {
  const { error, transform, invalidType } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-3xl">
      <BackLink to="/transforms">Transforms</BackLink>
      <h1 className="mb-6 text-2xl font-bold tracking-tight text-slate-900">Update Transform</h1>
      {error || !transform ? (
        <ErrorBlock message={error ?? M.loadFailed} />
      ) : invalidType ? (
        <ErrorBlock message={M.invalidType} />
      ) : (
        <section className="card space-y-4 p-6" aria-labelledby="deprecated-title">
          <div className="flex items-start gap-3">
            <svg viewBox="0 0 24 24" className="mt-0.5 h-6 w-6 shrink-0 text-amber-600" fill="none" stroke="currentColor" strokeWidth="1.8" aria-hidden="true">
              <path strokeLinecap="round" d="M12 8v5m0 3.5v.01M10.3 3.9 2.4 17.6A2 2 0 0 0 4.1 20.6h15.8a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0Z" />
            </svg>
            <div>
              <h2 id="deprecated-title" className="text-base font-semibold text-slate-900">
                {transform.name}
              </h2>
              <p className="mt-1 text-sm text-slate-700" role="status">
                {M.deprecated}
              </p>
            </div>
          </div>
          <div className="flex flex-wrap justify-end gap-3">
            <Link to={`/transforms/details/${transform.id}`} className="btn-secondary">
              View transform
            </Link>
            <Link to="/transforms/add" className="btn-primary">
              Create it again from a template
            </Link>
          </div>
        </section>
      )}
    </div>
  );
}
