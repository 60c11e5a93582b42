// What the pages under src/web/ share besides the API: finding their elements, typed.

/** The element with `id`, checked to be a `type` (a page and its script that disagree fail at once, saying which). */
export function byId<T extends HTMLElement>(id: string, type: new () => T): T {
  const element = document.getElementById(id);
  if (!(element instanceof type)) throw new Error(`the page has no ${type.name} #${id}`);
  return element;
}
