/** A list or detail that could not be loaded: the spec's message, and a way to try again. */
export function ErrorBlock({ message }: { message: string }) {
  return (
    <div role="alert" className="card flex flex-col items-center gap-3 border-red-200 bg-red-50 px-6 py-12 text-center">
      <svg viewBox="0 0 24 24" className="h-8 w-8 text-red-600" fill="none" stroke="currentColor" strokeWidth="1.8" aria-hidden="true">
        <path strokeLinecap="round" d="M12 8v5m0 3.5v.01M10.3 3.9 2.4 17.6A2 2 0 0 0 4.1 20.6h15.8a2 2 0 0 0 1.7-3L13.7 3.9a2 2 0 0 0-3.4 0Z" />
      </svg>
      <p className="text-base font-semibold text-red-800">{message}</p>
      <a href="" className="btn-secondary">
        Try again
      </a>
    </div>
  );
}
