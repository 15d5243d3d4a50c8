import path from "node:path";

/**
 * A local destination's failure as the user sees it (a run's error, a transform's error): it names the problem and
 * never the server's folders. The OS code stays on the error (the sync engine tells permanent refusals apart by
 * it), and the original error is its `cause`, for the log.
 */
export class LocalDestinationError extends Error {
  constructor(
    message: string,
    readonly code: string | undefined,
    options: { cause: unknown },
  ) {
    super(message, options);
    this.name = "LocalDestinationError";
  }
}

/** What each OS refusal means for a destination folder; the code leads, as in the OS's own message. */
const PROBLEMS: Record<string, string> = {
  EACCES: "the destination's folder is not writable (permission denied)",
  EPERM: "the destination's folder is not writable (operation not permitted)",
  EROFS: "the destination's folder is on a read-only file system",
  ENOSPC: "the disk that holds the destination's folder is full",
  EDQUOT: "the disk quota for the destination's folder is used up",
  ENOTDIR: "a file stands where the destination's folder needs a folder",
  EISDIR: "a folder stands where the destination's folder needs a file",
  ENOENT: "a file or folder of the destination is missing",
  EMFILE: "the server has too many files open",
  ENFILE: "the server has too many files open",
};

/** An absolute path (POSIX or Windows) not inside a URL: preceded by the start, a space, a quote or a bracket. */
const ABSOLUTE_PATH = /(?<=^|[\s"'`(=[])(?:\/|[A-Za-z]:\\)[^\s"'`)\]]*/g;

/** `message` with `root` made relative (its files by their names within it) and any other absolute path left out. */
export function withoutServerPaths(message: string, root: string): string {
  const base = path.resolve(root);
  const text = message.split(base + path.sep).join("").split(base).join("the destination's folder");
  return text.replace(ABSOLUTE_PATH, "(a server path)");
}

export function localFailure(error: unknown, root: string): Error {
  if (error instanceof LocalDestinationError) return error;
  const e = error as { message?: unknown; code?: unknown } | null;
  const code = typeof e?.code === "string" ? e.code : undefined;
  const problem = code ? PROBLEMS[code] : undefined;
  const message = problem ? `${code}: ${problem}` : withoutServerPaths(String(e?.message ?? error), root);
  return new LocalDestinationError(message, code, { cause: error });
}
