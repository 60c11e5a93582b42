// The API reference page's script (GET /docs): Swagger UI (swagger-ui-dist's bundle, loaded by the
// page before this script) rendering this service's own OpenAPI document. Swagger UI makes its
// own requests: a key typed into its Authorize dialog stays in its memory, as api.ts's does.

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

// Relative URLs throughout, so the page also works behind a proxy that mounts the service under a prefix.
window.addEventListener("load", () => {
  window.ui = window.SwaggerUIBundle({
    url: "api/openapi.json",
    dom_id: "#swagger-ui",
    presets: [window.SwaggerUIBundle.presets.apis],
    layout: "BaseLayout",
    deepLinking: true,
    docExpansion: "list",
    defaultModelsExpandDepth: 0,
    displayRequestDuration: true,
    filter: true,
    validatorUrl: null,
  });
});

export {};
