// What the pages under src/web/ share besides the API: finding their elements, typed.

/** The element with `id`, checked to be a `type` (a page and its script that disagree fail at once, saying which). */
export function byId<T extends HTMLElement>(id: string, type: new () => T): T {
  const element = document.getElementById(id);
  if (!(element instanceof type)) throw new Error(`the page has no ${type.name} #${id}`);
  return element;
}

/** The control named `name` in `form`, checked to be a `type`. */
export function fieldOf<T extends HTMLElement>(form: HTMLFormElement, name: string, type: new () => T): T {
  const element = form.elements.namedItem(name);
  if (!(element instanceof type)) throw new Error(`the form #${form.id} has no ${type.name} named ${name}`);
  return element;
}
