/** Tributary's mark: streams joining into one. */
export function LogoMark({ className = "h-8 w-8" }: { className?: string }) {
  return (
    <svg viewBox="0 0 32 32" className={className} aria-hidden="true">
      <defs>
        <linearGradient id="tributary-mark" x1="0" y1="0" x2="1" y2="1">
          <stop offset="0" stopColor="#1d5cf1" />
          <stop offset="1" stopColor="#14b8a6" />
        </linearGradient>
      </defs>
      <rect width="32" height="32" rx="8" fill="url(#tributary-mark)" />
      <path
        d="M7 9c5 0 6 4 9 7s5 7 9 7M7 16c4 0 5 2 9 0M7 23c3 0 6-2 9-7"
        fill="none"
        stroke="#fff"
        strokeWidth="2.6"
        strokeLinecap="round"
      />
    </svg>
  );
}

export function Logo({ className = "h-8 w-auto" }: { className?: string }) {
  return (
    <span className={`inline-flex items-center gap-2 ${className}`}>
      <LogoMark className="h-full w-auto" />
      <span className="text-lg font-bold tracking-tight text-slate-900">Tributary</span>
    </span>
  );
}
