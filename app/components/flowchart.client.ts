/**
 * Mermaid, for the browser only: a `.client` module is an empty module in the
 * server build, and the dynamic import puts mermaid in chunks of its own that
 * only the template page loads, when it needs them.
 */
export async function renderMermaid(id: string, code: string): Promise<string> {
  const { default: mermaid } = await import("mermaid");
  mermaid.initialize({
    startOnLoad: false,
    securityLevel: "strict",
    theme: "base",
    fontFamily: "inherit",
    themeVariables: { primaryColor: "#eef6ff", primaryBorderColor: "#337cfc", primaryTextColor: "#0f172a", lineColor: "#94a3b8", fontSize: "14px" },
    flowchart: { htmlLabels: false, curve: "basis" },
  });
  const { svg } = await mermaid.render(id, code);
  return svg;
}
