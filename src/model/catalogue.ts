// An edition's catalogue: its attribute keys (one column each, in column order) and its badges
// (one tier column each), taken from its data at build time (docs/data.md#every-edition-has-its-own-catalogue) and stored in its
// snapshot. The registry (attributes.ts, badges.ts) only orders what it knows first and fills in
// what a source left out (a known badge's category and description); a key or badge it does not
// know is as much a column as one it does. Stores, plans and the badge routes read an edition's
// catalogue, never the registry.

import { ATTRIBUTE_ALIASES, ATTRIBUTE_INDEX, ATTRIBUTE_KEYS, toSnakeCase } from "./attributes.js";
import { BADGES, BADGE_INDEX_BY_SLUG, foldBadgeName } from "./badges.js";
import { compareText } from "./badge-summary.js";

/** One badge of an edition. */
export interface CatalogueBadge {
  readonly name: string;
  readonly slug: string;
  /** As the source gave it (2kratings' pills: Outside Scoring …), else the registry's, else "Other". */
  readonly category: string;
  readonly description: string;
  readonly imageUrl?: string;
}

/** What the snapshot stores: plain arrays, readable by any MessagePack decoder. */
export interface StoredCatalogue {
  /** camelCase attribute keys in column order. */
  attributes: string[];
  /** Badges in column order. */
  badges: CatalogueBadge[];
}

/** A badge without a category from its source or the registry. */
export const UNCATEGORISED = "Other";

export class Catalogue {
  readonly attributeKeys: readonly string[];
  readonly attributeCount: number;
  /** The snake_case filter/sort name of every column (`shot_iq`), in column order. */
  readonly paramNames: readonly string[];
  readonly badges: readonly CatalogueBadge[];
  readonly badgeCount: number;
  /** Every category a badge of the edition has, sorted. */
  readonly categories: readonly string[];
  /** Badge indexes in name order (change lists read alphabetically). */
  readonly badgesByName: readonly number[];
  private readonly columnByKey: ReadonlyMap<string, number>;
  private readonly columnByParam: ReadonlyMap<string, number>;
  private readonly badgeBySlug: ReadonlyMap<string, number>;
  private readonly badgeByFoldedName: ReadonlyMap<string, number>;

  constructor(stored: StoredCatalogue) {
    this.attributeKeys = stored.attributes;
    this.attributeCount = stored.attributes.length;
    this.paramNames = stored.attributes.map(toSnakeCase);
    this.columnByKey = new Map(stored.attributes.map((key, column) => [key, column]));
    // Two keys with one snake_case name (`shotIQ`, `shotIq`): the first column keeps the name.
    const byParam = new Map<string, number>();
    this.paramNames.forEach((name, column) => { if (!byParam.has(name)) byParam.set(name, column); });
    this.columnByParam = byParam;
    this.badges = stored.badges;
    this.badgeCount = stored.badges.length;
    this.badgeBySlug = new Map(stored.badges.map((badge, index) => [badge.slug, index]));
    this.badgeByFoldedName = new Map(stored.badges.map((badge, index) => [foldBadgeName(badge.name), index]));
    this.categories = [...new Set(stored.badges.map((badge) => badge.category))].sort(compareText);
    this.badgesByName = stored.badges.map((_, index) => index).sort((a, b) => compareText((stored.badges[a] as CatalogueBadge).name, (stored.badges[b] as CatalogueBadge).name));
  }

  /** The column of a camelCase key, or undefined. */
  columnOfKey(key: string): number | undefined {
    return this.columnByKey.get(key);
  }

  /** The column of a snake_case name (`three_point_shot`) or an alias (`three_ball`), or undefined. */
  columnOfParam(name: string): number | undefined {
    return this.columnByParam.get(canonicalAttributeParam(name));
  }

  /** A badge by slug (any case) or by its name written any way, or undefined. */
  badgeOf(text: string): number | undefined {
    return this.badgeBySlug.get(text.toLowerCase()) ?? this.badgeByFoldedName.get(foldBadgeName(text));
  }

  stored(): StoredCatalogue {
    return { attributes: [...this.attributeKeys], badges: [...this.badges] };
  }
}

/** An alias's snake_case name (`three_ball` → `three_point_shot`); any other name as it is. */
export function canonicalAttributeParam(name: string): string {
  const key = Object.hasOwn(ATTRIBUTE_ALIASES, name) ? ATTRIBUTE_ALIASES[name] : undefined;
  return key === undefined ? name : toSnakeCase(key);
}

/** The registry's 43 attributes and 40 badges: what the demo's current edition has, and what snapshots written before catalogues held. */
export const REGISTRY_CATALOGUE = new Catalogue({
  attributes: [...ATTRIBUTE_KEYS],
  badges: BADGES.map(({ name, slug, category, description }) => ({ name, slug, category, description })),
});

/** What a catalogue is built from: the attributes and badge lists of an edition's rows and weeks. */
export interface CatalogueSource {
  attributes: Readonly<Record<string, number | undefined>>;
  /** Week rows name their badges by slug alone. */
  badgeList?: readonly { name?: string; slug: string; category?: string; description?: string; imageUrl?: string }[];
}

/** What the rows say of one badge: the first non-empty value of each field. */
interface SeenBadge {
  name: string | undefined;
  category: string | undefined;
  description: string | undefined;
  imageUrl: string | undefined;
}

/**
 * The catalogue an edition's data has: every attribute key some row carries (the registry's in its
 * order, then the others by name) and every badge some list holds (the registry's in its order,
 * then the others by slug), each with the first name, category, description and image URL a row
 * gives (the registry's where none does): a badge is named as the source spells it (docs/data.md#source-values-kept-exactly).
 * Badges meet by folded slug, so `handles-for-days` and `Handles-For-Days` are one.
 */
export function catalogueOf(sources: Iterable<CatalogueSource>): Catalogue {
  const keys = new Set<string>();
  const badges = new Map<string, SeenBadge>();
  /** The slug each folded slug was first seen as: the catalogue's. */
  const slugOfFolded = new Map<string, string>();
  for (const source of sources) {
    for (const key in source.attributes) if (source.attributes[key] !== undefined) keys.add(key);
    for (const badge of source.badgeList ?? []) {
      const folded = foldBadgeName(badge.slug);
      const slug = slugOfFolded.get(folded) ?? badge.slug;
      const seen = badges.get(slug);
      if (seen === undefined) {
        slugOfFolded.set(folded, slug);
        badges.set(slug, { name: badge.name || undefined, category: badge.category || undefined, description: badge.description || undefined, imageUrl: badge.imageUrl || undefined });
        continue;
      }
      seen.name ??= badge.name || undefined;
      seen.category ??= badge.category || undefined;
      seen.description ??= badge.description || undefined;
      seen.imageUrl ??= badge.imageUrl || undefined;
    }
  }
  const registryOrder = (index: ReadonlyMap<string, number>) => (a: string, b: string) =>
    (index.get(a) ?? Infinity) - (index.get(b) ?? Infinity) || compareText(a, b);
  const attributes = [...keys].sort(registryOrder(ATTRIBUTE_INDEX));
  const slugs = [...badges.keys()].sort(registryOrder(BADGE_INDEX_BY_SLUG));
  return new Catalogue({
    attributes,
    badges: slugs.map((slug) => {
      const seen = badges.get(slug) as SeenBadge;
      const known = BADGES[BADGE_INDEX_BY_SLUG.get(slug) ?? -1];
      const name = seen.name ?? known?.name ?? slug;
      return {
        name,
        slug,
        category: seen.category ?? known?.category ?? UNCATEGORISED,
        description: seen.description ?? known?.description ?? name,
        ...(seen.imageUrl === undefined ? {} : { imageUrl: seen.imageUrl }),
      };
    }),
  });
}
