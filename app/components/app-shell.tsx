import { useEffect, useRef } from "react";
import { Form, Link, NavLink, useLocation, useNavigation } from "@remix-run/react";
import type { UserInfo } from "@contract/auth";
import type { WorkspaceRef } from "@contract/workspaces";
import { Logo } from "./logo";

const NAV = [
  { to: "/connectors", label: "Connectors", icon: "M4 12h4l3-7 4 14 3-7h2" },
  { to: "/sources", label: "Sources", icon: "M12 3c4.4 0 8 1.3 8 3s-3.6 3-8 3-8-1.3-8-3 3.6-3 8-3Zm-8 3v12c0 1.7 3.6 3 8 3s8-1.3 8-3V6M4 12c0 1.7 3.6 3 8 3s8-1.3 8-3" },
  { to: "/destinations", label: "Destinations", icon: "M12 21s-7-5.3-7-11a7 7 0 1 1 14 0c0 5.7-7 11-7 11Zm0-8.5a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5Z" },
  { to: "/transforms", label: "Transforms", icon: "M4 6h10M4 12h16M4 18h7m6-15 3 3-3 3m-3 6 3 3-3 3" },
] as const;

export function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  if (words.length === 0) return "?";
  const first = words[0]![0] ?? "";
  const last = words.length > 1 ? (words[words.length - 1]![0] ?? "") : "";
  return (first + last).toUpperCase();
}

function NavIcon({ d }: { d: string }) {
  return (
    <svg viewBox="0 0 24 24" className="h-5 w-5 shrink-0" fill="none" stroke="currentColor" strokeWidth="1.8" strokeLinecap="round" strokeLinejoin="round" aria-hidden="true">
      <path d={d} />
    </svg>
  );
}

/**
 * The workspaces the member belongs to: the current one marked, each other one a button that switches to it (a form:
 * it works without JavaScript), and a link to make a new one. The choice is remembered across sessions.
 */
function WorkspaceSwitcher({ workspace, workspaces }: { workspace: WorkspaceRef; workspaces: WorkspaceRef[] }) {
  return (
    <div className="pb-1">
      <p id="workspaces-heading" className="px-3 pt-1 pb-1 text-xs font-semibold tracking-wide text-slate-500 uppercase">
        Workspaces
      </p>
      <ul aria-labelledby="workspaces-heading">
        {workspaces.map((w) =>
          w.id === workspace.id ? (
            <li key={w.id} aria-current="true" className="flex items-center gap-2 rounded-lg px-3 py-2 text-sm font-semibold text-brand-800">
              <svg viewBox="0 0 20 20" className="h-4 w-4 shrink-0" fill="currentColor" aria-hidden="true">
                <path fillRule="evenodd" d="M16.7 5.3a1 1 0 0 1 0 1.4l-8 8a1 1 0 0 1-1.4 0l-4-4a1 1 0 1 1 1.4-1.4L8 12.6l7.3-7.3a1 1 0 0 1 1.4 0Z" clipRule="evenodd" />
              </svg>
              <span className="truncate">{w.name}</span>
              <span className="sr-only"> (current)</span>
            </li>
          ) : (
            <li key={w.id}>
              <Form method="post" action="/workspaces/switch">
                <input type="hidden" name="workspace_id" value={w.id} />
                <button type="submit" className="flex w-full items-center gap-2 rounded-lg py-2 pr-3 pl-9 text-left text-sm font-medium text-slate-700 hover:bg-slate-100">
                  <span className="truncate">
                    <span className="sr-only">Switch to </span>
                    {w.name}
                  </span>
                </button>
              </Form>
            </li>
          ),
        )}
      </ul>
      <Link to="/settings/members?new=1" className="block rounded-lg py-2 pr-3 pl-9 text-sm font-medium text-brand-700 hover:bg-slate-100">
        New workspace
      </Link>
      <hr className="my-1 border-slate-100" />
    </div>
  );
}

/** A <details> menu: works without JS; with JS it also closes on Escape and outside clicks. */
function ProfileMenu({ user, workspace, workspaces }: { user: UserInfo; workspace: WorkspaceRef | null; workspaces: WorkspaceRef[] }) {
  const ref = useRef<HTMLDetailsElement>(null);
  const { key } = useLocation();
  // A link of the menu (Alert settings) navigates without a page load: the menu closes behind it.
  useEffect(() => {
    if (ref.current) ref.current.open = false;
  }, [key]);
  useEffect(() => {
    const close = (event: Event) => {
      const menu = ref.current;
      if (!menu?.open) return;
      if (event instanceof KeyboardEvent ? event.key === "Escape" : !menu.contains(event.target as Node)) menu.open = false;
    };
    document.addEventListener("click", close);
    document.addEventListener("keydown", close);
    return () => {
      document.removeEventListener("click", close);
      document.removeEventListener("keydown", close);
    };
  }, []);
  return (
    <details ref={ref} className="relative">
      <summary
        className="flex h-9 w-9 cursor-pointer list-none items-center justify-center rounded-full bg-brand-600 text-sm font-semibold text-white ring-offset-2 hover:ring-2 hover:ring-brand-300"
        data-profile-menu=""
      >
        {/* Named by its own text, which holds the initials it shows (WCAG 2.5.3: a voice user says what they see). */}
        <span aria-hidden="true">{initials(user.name)}</span>
        <span className="sr-only">{`Profile menu for ${user.name} (${initials(user.name)})`}</span>
      </summary>
      <div className="absolute right-0 z-20 mt-2 w-64 rounded-xl border border-slate-200 bg-white p-2 shadow-lg">
        <div className="px-3 py-2">
          <p className="truncate text-sm font-semibold text-slate-900">{user.name}</p>
          <p className="truncate text-sm text-slate-600">{user.email}</p>
        </div>
        <hr className="my-1 border-slate-100" />
        {workspace ? <WorkspaceSwitcher workspace={workspace} workspaces={workspaces} /> : null}
        <Link to="/settings/members" className="block rounded-lg px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100">
          Members
        </Link>
        <Link to="/activity" className="block rounded-lg px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100">
          Activity
        </Link>
        <Link to="/settings/alerts" className="block rounded-lg px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100">
          Alert settings
        </Link>
        <Link to="/settings/api-keys" className="block rounded-lg px-3 py-2 text-sm font-medium text-slate-700 hover:bg-slate-100">
          API keys
        </Link>
        <Form method="post" action="/logout" reloadDocument>
          <button type="submit" className="w-full rounded-lg px-3 py-2 text-left text-sm font-medium text-slate-700 hover:bg-slate-100">
            Log out
          </button>
        </Form>
      </div>
    </details>
  );
}

/**
 * After a form sent with JavaScript leads to another page (a create, a save, a delete), focus would stay on the
 * <body> the submit button left: it moves to that page's status message, else its heading, where a screen reader
 * picks up. A page that focuses something itself (an error banner) keeps it.
 */
function useFocusAfterSubmit() {
  const navigation = useNavigation();
  const location = useLocation();
  const submittedFrom = useRef<string | null>(null);
  const submitting = navigation.state !== "idle" && !!navigation.formMethod && navigation.formMethod.toUpperCase() !== "GET";
  useEffect(() => {
    if (submitting) submittedFrom.current = location.key;
  }, [submitting, location.key]);
  useEffect(() => {
    if (navigation.state !== "idle") return;
    const from = submittedFrom.current;
    submittedFrom.current = null;
    if (from === null || from === location.key) return;
    const active = document.activeElement;
    if (active && active !== document.body && document.contains(active)) return;
    const target = document.querySelector<HTMLElement>('#main [role="status"], #main h1');
    if (!target) return;
    if (!target.hasAttribute("tabindex")) target.setAttribute("tabindex", "-1");
    target.focus({ preventScroll: true });
  }, [location.key, navigation.state]);
}

export function AppShell({
  user,
  workspace,
  workspaces,
  children,
}: {
  user: UserInfo;
  workspace: WorkspaceRef | null;
  workspaces: WorkspaceRef[];
  children: React.ReactNode;
}) {
  useFocusAfterSubmit();
  return (
    <div className="flex min-h-full flex-col">
      <a href="#main" className="sr-only rounded-lg bg-white px-4 py-2 text-sm font-semibold text-brand-700 shadow-lg focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-30">
        Skip to content
      </a>
      <header className="sticky top-0 z-10 flex h-16 items-center justify-between border-b border-slate-200 bg-white/90 px-4 backdrop-blur sm:px-6">
        <div className="flex min-w-0 items-center gap-3">
          <Link to="/connectors" aria-label="Tributary home" className="shrink-0 rounded-md">
            <Logo className="h-8" />
          </Link>
          {workspace ? (
            <span className="truncate rounded-full border border-slate-200 bg-slate-50 px-3 py-1 text-xs font-medium text-slate-700 sm:text-sm" data-current-workspace="">
              <span className="sr-only">Workspace: </span>
              {workspace.name}
            </span>
          ) : null}
        </div>
        <ProfileMenu user={user} workspace={workspace} workspaces={workspaces} />
      </header>
      <div className="flex flex-1 flex-col md:flex-row">
        <nav aria-label="Main" className="border-b border-slate-200 bg-white md:w-60 md:shrink-0 md:border-r md:border-b-0">
          <ul className="grid grid-cols-4 gap-1 p-2 md:flex md:flex-col md:p-4">
            {NAV.map((item) => (
              <li key={item.to}>
                <NavLink
                  to={item.to}
                  prefetch="intent"
                  className={({ isActive }) =>
                    `flex flex-col items-center gap-1 rounded-lg px-1 py-2 text-xs font-medium transition-colors sm:text-sm md:flex-row md:gap-3 md:px-3 ${
                      isActive ? "bg-brand-50 text-brand-800" : "text-slate-600 hover:bg-slate-100 hover:text-slate-900"
                    }`
                  }
                >
                  <NavIcon d={item.icon} />
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" tabIndex={-1} className="min-w-0 flex-1 px-4 py-6 outline-none sm:px-8 sm:py-8">
          {children}
        </main>
      </div>
    </div>
  );
}
