// The API reference page's script (GET /docs): Swagger UI (swagger-ui-dist's bundle, loaded by the
// page before this script) rendering this service's own OpenAPI document. Swagger UI makes its
// own requests: a key typed into its Authorize dialog stays in its memory, as api.ts's does.
// The page opens on the routes: of the document's description (a screen of prose on
// authentication, limits, caching, errors) only its first paragraph shows, the rest one click away
// under "About this API".

/** What this page uses of React, as Swagger UI hands it to a plugin. */
interface ReactLike {
  createElement(type: unknown, props: Record<string, unknown> | null, ...children: unknown[]): unknown;
}

/** What a Swagger UI plugin's component wrapper is given. */
interface SwaggerSystem {
  React: ReactLike;
  getComponent(name: string, isContainer?: boolean): unknown;
  specSelectors: { info(): { get(key: string): unknown } | undefined };
}

/** What this page uses of the global swagger-ui-bundle.js defines. */
interface SwaggerUi {
  (options: Record<string, unknown>): unknown;
  presets: { apis: unknown };
}

declare global {
  interface Window {
    SwaggerUIBundle: SwaggerUi;
    ui: unknown;
  }
}

/**
 * The description split at its first blank line: the lead paragraph, and the rest with the
 * paragraphs' bold lead words ("Authentication", "Rate limits") as the summary's list of topics.
 */
export function splitDescription(description: string): { lead: string; rest: string; topics: string[] } {
  const at = description.indexOf("\n\n");
  const lead = at === -1 ? description : description.slice(0, at);
  const rest = at === -1 ? "" : description.slice(at + 2).trim();
  const topics = [...rest.matchAll(/^\*\*([^*]+?)\.?\*\*/gm)].map((match) => (match[1] ?? "").toLowerCase());
  return { lead, rest, topics };
}

/**
 * A Swagger UI plugin: the info block (title, version, the document's URL) keeps its place with its
 * description hidden (docs.css); beneath it, the lead paragraph, then the rest in a <details>.
 */
const aboutOneClickAway = {
  wrapComponents: {
    InfoContainer: (Original: unknown, system: SwaggerSystem) => (props: Record<string, unknown>) => {
      const { React } = system;
      const description = system.specSelectors.info()?.get("description");
      const shown = React.createElement(Original, props);
      if (typeof description !== "string" || description === "") return shown;
      const { lead, rest, topics } = splitDescription(description);
      const Markdown = system.getComponent("Markdown", true);
      return React.createElement("div", { className: "about-api" },
        shown,
        React.createElement("div", { className: "about-api-text" },
          React.createElement(Markdown, { source: lead }),
          rest === "" ? null : React.createElement("details", { className: "about-api-more" },
            React.createElement("summary", null, "About this API",
              topics.length > 0 ? React.createElement("span", { className: "about-api-topics" }, `: ${topics.join(", ")}`) : null),
            React.createElement(Markdown, { source: rest }))));
    },
  },
};

// Relative URLs throughout, so the page also works behind a proxy that mounts the service under a prefix.
window.addEventListener("load", () => {
  window.ui = window.SwaggerUIBundle({
    url: "api/openapi.json",
    dom_id: "#swagger-ui",
    presets: [window.SwaggerUIBundle.presets.apis],
    plugins: [() => aboutOneClickAway],
    layout: "BaseLayout",
    deepLinking: true,
    docExpansion: "list",
    defaultModelsExpandDepth: 0,
    displayRequestDuration: true,
    filter: true,
    validatorUrl: null,
  });
});
